import ipaddr from 'ipaddr.js';

/**
 * Where webhook deliveries may go (SSRF). Checked when an endpoint is registered and again on
 * every send, against the address actually connected to.
 */
export interface WebhookTargetPolicy {
  /** Allow plain http:// (local development only). */
  allowHttp: boolean;
  /** Allow loopback, private, link-local and other internal targets (tests, local development). */
  allowPrivate: boolean;
  /** Ports an endpoint may use; `any` lifts the rule (local development and tests only). */
  allowedPorts: ReadonlySet<number> | 'any';
}

/** Ports open to webhook endpoints unless configured otherwise: internal services listen on odd ports. */
export const DEFAULT_WEBHOOK_PORTS: readonly number[] = [443, 80, 8443, 8080];

const INTERNAL_HOST_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa'];

/**
 * Ranges no delivery may reach: this-network, private, CGNAT, loopback, link-local (cloud
 * metadata), IETF/documentation/benchmark nets, 6to4 relay, multicast and reserved; for IPv6 the
 * whole `::/8` (loopback, unspecified and the IPv4-compatible forms), NAT64, discard, Teredo,
 * documentation, 6to4, unique-local, link-local, site-local and multicast. IPv4-mapped IPv6
 * addresses are unwrapped and checked as IPv4 first.
 */
const BLOCKED_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/8',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/32',
  '2001:db8::/32',
  '2002::/16',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
].map((cidr) => ipaddr.parseCIDR(cidr));

/** True when an IP address is not a public unicast address (or is not an IP address at all). */
export function isNonPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  return BLOCKED_RANGES.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
}

/** The port a URL connects to. */
export function targetPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
}

function parseTarget(raw: string): URL | string {
  if (raw.length > 2048) return 'endpoint must be at most 2048 characters';
  try {
    return new URL(raw);
  } catch {
    return 'endpoint must be an absolute URL';
  }
}

/**
 * Checks a webhook endpoint (SSRF: no internal targets, no odd ports, no credentials in the URL).
 * Returns a reason when refused. Host names are checked again after DNS resolution at send time.
 */
export function webhookTargetProblem(raw: string, policy: WebhookTargetPolicy): string | undefined {
  const url = parseTarget(raw);
  if (typeof url === 'string') return url;
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) {
    return policy.allowHttp ? 'endpoint must use http or https' : 'endpoint must use https';
  }
  if (url.username || url.password) return 'endpoint must not contain credentials';
  if (url.hash) return 'endpoint must not contain a fragment';
  if (policy.allowedPorts !== 'any' && !policy.allowedPorts.has(targetPort(url))) {
    return `endpoint port must be one of ${[...policy.allowedPorts].join(', ')}`;
  }
  if (policy.allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (ipaddr.isValid(host))
    return isNonPublicAddress(host) ? 'endpoint must not target a private or internal address' : undefined;
  if (host === 'localhost' || INTERNAL_HOST_SUFFIXES.some((s) => host.endsWith(s)) || !host.includes('.')) {
    return 'endpoint must target a public host name';
  }
  return undefined;
}

/** Parses a port allow-list setting: `443,80,8443` or `*` (any port). */
export function parsePortAllowList(value: string): ReadonlySet<number> | 'any' {
  if (value.trim() === '*') return 'any';
  return new Set(value.split(',').map((p) => Number(p.trim())));
}
