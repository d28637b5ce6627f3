import { isIP } from 'node:net';

export interface WebhookTargetPolicy {
  /** Allow plain http:// (local development only). */
  allowHttp: boolean;
  /** Allow loopback, private, link-local and other internal targets (tests, local development). */
  allowPrivate: boolean;
}

const INTERNAL_HOST_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa'];

function ipv4Private(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return (
    a === 0 || a === 10 || a === 127 || a >= 224 || // this-network, private, loopback, multicast/reserved
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata endpoints live here)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

function ipv6Private(ip: string): boolean {
  const v = ip.toLowerCase();
  if (v === '::' || v === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v);
  if (mapped) return ipv4Private(mapped[1]);
  // WHATWG URL parsing rewrites ::ffff:10.0.0.1 as ::ffff:a00:1: check the embedded IPv4 too.
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v);
  if (mappedHex) {
    const hi = parseInt(mappedHex[1], 16);
    const lo = parseInt(mappedHex[2], 16);
    return ipv4Private(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  if (/^::ffff:0:/.test(v) || /^64:ff9b::/.test(v)) return true; // translated forms: refuse outright
  return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(v);
}

/** True when an IP address is not a public unicast address. */
export function isNonPublicAddress(ip: string): boolean {
  const kind = isIP(ip);
  if (kind === 4) return ipv4Private(ip);
  if (kind === 6) return ipv6Private(ip);
  return true;
}

/**
 * Checks a webhook endpoint before it is stored (SSRF: no internal targets, no credentials in
 * the URL). Returns a reason when refused. Names are re-checked after DNS resolution at send time.
 */
export function webhookTargetProblem(raw: string, policy: WebhookTargetPolicy): string | undefined {
  if (raw.length > 2048) return 'endpoint must be at most 2048 characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'endpoint must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) {
    return policy.allowHttp ? 'endpoint must use http or https' : 'endpoint must use https';
  }
  if (url.username || url.password) return 'endpoint must not contain credentials';
  if (url.hash) return 'endpoint must not contain a fragment';
  if (policy.allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host)) return isNonPublicAddress(host) ? 'endpoint must not target a private or internal address' : undefined;
  if (host === 'localhost' || INTERNAL_HOST_SUFFIXES.some((s) => host.endsWith(s)) || !host.includes('.')) {
    return 'endpoint must target a public host name';
  }
  return undefined;
}
