import { KeyObject, sign } from 'node:crypto';
import type { SigningKeyStore } from './signing-key.store';

/** JOSE `typ` of webhook delivery tokens: explicit, so one is never mistaken for an access token. */
export const WEBHOOK_TOKEN_TYPE = 'alert-webhook+jwt';

/**
 * The end of a token's payload, already base64url-encoded: the large part of a body that is the
 * same on every token of a message (its recipient and alerts) and the payload's closing brace.
 * Encoded once, reused by every webhook and every attempt of that message.
 */
export interface EncodedPayloadTail {
  /** base64url of the JSON text followed by the `}` that closes the payload. */
  readonly base64url: string;
}

/** At most three UTF-8 bytes per UTF-16 code unit. */
const MAX_UTF8_PER_UNIT = 3;

/**
 * Encodes the end of a body claim's JSON text (see `WebhookTokenClaims.bodyTail`), given in parts
 * so a multi-MB text is never concatenated: each part is written as UTF-8 into one buffer, sized
 * by the worst case instead of measuring the text first.
 */
export function encodePayloadTail(jsonParts: readonly string[]): EncodedPayloadTail {
  const bytes = Buffer.allocUnsafe(jsonParts.reduce((n, p) => n + p.length * MAX_UTF8_PER_UNIT, 1));
  let at = 0;
  for (const part of jsonParts) at += bytes.write(part, at, 'utf8');
  bytes[at++] = CLOSE_BRACE;
  return { base64url: bytes.toString('base64url', 0, at) };
}

export interface WebhookTokenClaims {
  /** Receiving app id (`aud`). */
  appId: string;
  /** Delivery id (`jti`): the same on every retry, so receivers can drop duplicates. */
  deliveryId: string;
  /** Message id (`sub`); the delivery id for test deliveries, which carry no message. */
  subject: string;
  /** Tenant the message belongs to (`tenant_id`). */
  tenantId: string;
  /** `notification-only`, `full-payload` or `test`. */
  type: string;
  /** Name of the claim holding the body (`notice` or `message`). */
  bodyClaim: string;
  /** The body as JSON text, embedded as is (large messages are never parsed again); with `bodyTail`, its start only. */
  bodyJson: string;
  /** The rest of the body's JSON text, encoded once per message (`encodePayloadTail`). */
  bodyTail?: EncodedPayloadTail;
}

export interface SignedWebhookToken {
  /** The compact JWS as bytes (ASCII), ready to be sent as a request body. */
  token: Buffer;
  kid: string;
}

const CLOSE_BRACE = 0x7d;
const DOT = 0x2e;
/** An ES256 signature (64 bytes) in base64url. */
const SIGNATURE_CHARS = 86;

const b64url = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

/**
 * The payload's JSON text up to the body tail, padded with JSON whitespace to a multiple of three
 * bytes: base64 then ends on a group boundary, so the tail's own encoding follows it unchanged.
 */
function alignedHead(head: string): Buffer {
  const length = Buffer.byteLength(head, 'utf8');
  const padded = Buffer.alloc(length + ((3 - (length % 3)) % 3), ' ');
  padded.write(head, 0, 'utf8');
  return padded;
}

/**
 * Signs webhook deliveries as compact ES256 JWTs with the active webhook key (design §6), fresh
 * `iat`/`exp` on every attempt. Built with node:crypto straight into one buffer: jose re-encodes
 * the payload and is about five times slower on 1 MB tokens; any standard JWT library verifies the
 * result. A body tail is copied in already encoded: only the claims before it are encoded per token.
 */
export class WebhookTokenSigner {
  private keyObjects = new WeakMap<object, KeyObject>();

  constructor(
    private readonly keys: SigningKeyStore,
    private readonly issuer: string,
    private readonly ttlSeconds = 300,
  ) {}

  async sign(c: WebhookTokenClaims, now = Date.now()): Promise<SignedWebhookToken> {
    const key = await this.keys.activeKey('webhook');
    const iat = Math.floor(now / 1000);
    const header = b64url(JSON.stringify({ alg: key.alg, kid: key.kid, typ: WEBHOOK_TOKEN_TYPE }));
    const fixed = JSON.stringify({
      iss: this.issuer,
      aud: c.appId,
      sub: c.subject,
      jti: c.deliveryId,
      iat,
      exp: iat + this.ttlSeconds,
      type: c.type,
      tenant_id: c.tenantId,
    });
    const head = `${fixed.slice(0, -1)},${JSON.stringify(c.bodyClaim)}:${c.bodyJson}`;
    const encodedHead = c.bodyTail ? alignedHead(head).toString('base64url') : b64url(`${head}}`);
    const tail = c.bodyTail?.base64url;
    // Bytes all the way: a multi-MB token is written once into one buffer, never a string.
    const token = Buffer.allocUnsafe(
      header.length + 1 + encodedHead.length + (tail?.length ?? 0) + 1 + SIGNATURE_CHARS,
    );
    let at = token.write(header, 0, 'latin1');
    token[at++] = DOT;
    at += token.write(encodedHead, at, 'latin1');
    if (tail !== undefined) at += token.write(tail, at, 'latin1');
    const signature = sign('sha256', token.subarray(0, at), {
      key: this.keyObject(key.privateKey),
      dsaEncoding: 'ieee-p1363',
    });
    const encodedSignature = Buffer.from(`.${signature.toString('base64url')}`, 'latin1');
    // Room is kept for an ES256 signature (the webhook key's algorithm); any longer one is appended.
    if (at + encodedSignature.length > token.length)
      return { token: Buffer.concat([token.subarray(0, at), encodedSignature]), kid: key.kid };
    at += encodedSignature.copy(token, at);
    return { token: token.subarray(0, at), kid: key.kid };
  }

  private keyObject(cryptoKey: object): KeyObject {
    let ko = this.keyObjects.get(cryptoKey);
    if (!ko) {
      ko = KeyObject.from(cryptoKey as Parameters<typeof KeyObject.from>[0]);
      this.keyObjects.set(cryptoKey, ko);
    }
    return ko;
  }
}
