import { Webhook } from 'standardwebhooks';
import {
  generateWebhookSecret,
  isWebhookSecret,
  standardWebhookHeaders,
  standardWebhookSignature,
} from './standard-webhooks';

describe('Standard Webhooks signatures', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it('makes whsec_ secrets of 32 random bytes', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_/);
    expect(isWebhookSecret(a)).toBe(true);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
    expect(isWebhookSecret('whsec_short')).toBe(false);
  });

  it('signs any body so that the stock standardwebhooks library verifies it with the secret', () => {
    const secret = generateWebhookSecret();
    const body = Buffer.from('eyJhbGciOiJFUzI1NiJ9.eyJqdGkiOiIxIn0.c2ln', 'latin1');
    const headers = standardWebhookHeaders('d-1', now(), body, [secret]);
    expect(Object.keys(headers)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(() => new Webhook(secret).verify(body.toString('latin1'), headers, { jsonParse: false })).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body.toString(), headers)).toThrow(
      'No matching signature found',
    );
    expect(() => new Webhook(secret).verify(`${body.toString()}x`, headers)).toThrow();
  });

  it('sends one v1 signature per secret during a rotation; either secret verifies', () => {
    const [fresh, old] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = standardWebhookHeaders('d-2', now(), '{"a":1}', [fresh, old]);
    expect(headers['webhook-signature'].split(' ')).toEqual([
      standardWebhookSignature(fresh, 'd-2', Number(headers['webhook-timestamp']), '{"a":1}'),
      standardWebhookSignature(old, 'd-2', Number(headers['webhook-timestamp']), '{"a":1}'),
    ]);
    for (const s of [fresh, old]) expect(new Webhook(s).verify('{"a":1}', headers)).toEqual({ a: 1 });
  });

  it('leaves the signature out without a secret', () => {
    expect(standardWebhookHeaders('d-3', 1700000000, 'x', [])).toEqual({
      'webhook-id': 'd-3',
      'webhook-timestamp': '1700000000',
    });
  });
});
