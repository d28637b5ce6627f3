import { createPublicKey, verify } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@edu/persistence';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { KeyEncryption } from './key-encryption';
import { SigningKeyStore } from './signing-key.store';
import { encodePayloadTail, WEBHOOK_TOKEN_TYPE, WebhookTokenSigner } from './webhook-token.signer';

describe('webhook token signer', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let store: SigningKeyStore;
  let signer: WebhookTokenSigner;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url });
    await ds.initialize();
    store = new SigningKeyStore(ds, new KeyEncryption('x'.repeat(40)));
    signer = new WebhookTokenSigner(store, 'https://id.edu.example', 300);
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const claims = {
    appId: 'app-1',
    deliveryId: 'd-1',
    subject: 'm-1',
    tenantId: 't-1',
    type: 'notification-only',
    bodyClaim: 'notice',
    bodyJson: '{"message_id":"m-1","alert_count":3}',
  };

  it('signs a JWT that jose verifies against the published JWKS, with the webhook typ and claims', async () => {
    const { token, kid } = await signer.sign(claims);
    const jwks = createLocalJWKSet({ keys: await store.publishedKeys() });
    const { payload, protectedHeader } = await jwtVerify(token.toString(), jwks, {
      issuer: 'https://id.edu.example',
      audience: 'app-1',
      algorithms: ['ES256'],
      typ: WEBHOOK_TOKEN_TYPE,
    });
    expect(protectedHeader).toEqual({ alg: 'ES256', kid, typ: WEBHOOK_TOKEN_TYPE });
    expect(kid).toMatch(/^wh-/);
    expect(payload).toMatchObject({
      sub: 'm-1',
      jti: 'd-1',
      tenant_id: 't-1',
      type: 'notification-only',
      notice: { message_id: 'm-1', alert_count: 3 },
    });
    expect((payload.exp as number) - (payload.iat as number)).toBe(300);
  });

  it('produces a signature plain node:crypto verifies, for a body above 1 MB', async () => {
    const big = JSON.stringify({
      rows: Array.from({ length: 30_000 }, (_, i) => ({ key: `row ${i}`, value: 'x'.repeat(30) })),
    });
    expect(big.length).toBeGreaterThan(1_000_000);
    const { token, kid } = await signer.sign({ ...claims, type: 'full-payload', bodyClaim: 'message', bodyJson: big });
    const [h, p, s] = token.toString().split('.');
    const jwk = (await store.publishedKeys()).find((k) => k.kid === kid);
    const ok = verify(
      'sha256',
      Buffer.from(`${h}.${p}`),
      { key: createPublicKey({ key: jwk as never, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
      Buffer.from(s, 'base64url'),
    );
    expect(ok).toBe(true);
    expect(JSON.parse(Buffer.from(p, 'base64url').toString()).message.rows).toHaveLength(30_000);
  });

  it('gives every attempt a fresh iat but the same jti', async () => {
    const first = await signer.sign(claims, Date.UTC(2026, 0, 1, 0, 0, 0));
    const later = await signer.sign(claims, Date.UTC(2026, 0, 1, 0, 0, 5));
    const decode = (t: Buffer) => JSON.parse(Buffer.from(t.toString().split('.')[1], 'base64url').toString());
    expect(decode(later.token).iat - decode(first.token).iat).toBe(5);
    expect(decode(later.token).jti).toBe(decode(first.token).jti);
  });

  it('signs a body whose end was encoded once: every head length and multi-byte text, the same claims as the whole body', async () => {
    const jwks = createLocalJWKSet({ keys: await store.publishedKeys() });
    const tailJson = '"recipient":{"name":"Zoë Ngô 🦉"},"alerts":[{"rows":["détail ✓"]}]}';
    const tail = encodePayloadTail([tailJson.slice(0, 20), tailJson.slice(20)]);
    // App ids of three lengths put the encoded head on each of the three base64 group offsets.
    for (const appId of ['app-1', 'app-12', 'app-123']) {
      const head = `{"message_id":"m-1","transaction_id":"Größe-${appId}",`;
      const split = await signer.sign({
        ...claims,
        appId,
        type: 'full-payload',
        bodyClaim: 'message',
        bodyJson: head,
        bodyTail: tail,
      });
      const whole = await signer.sign({
        ...claims,
        appId,
        type: 'full-payload',
        bodyClaim: 'message',
        bodyJson: head + tailJson,
      });
      const verified = await jwtVerify(split.token.toString(), jwks, {
        issuer: 'https://id.edu.example',
        audience: appId,
        algorithms: ['ES256'],
        typ: WEBHOOK_TOKEN_TYPE,
      });
      const { payload: expected } = await jwtVerify(whole.token.toString(), jwks, {
        audience: appId,
        algorithms: ['ES256'],
      });
      expect(verified.payload).toEqual(expected);
      expect(verified.payload).toMatchObject({
        aud: appId,
        message: {
          transaction_id: `Größe-${appId}`,
          recipient: { name: 'Zoë Ngô 🦉' },
          alerts: [{ rows: ['détail ✓'] }],
        },
      });
    }
  });

  it('reuses one encoded tail for tokens of different webhooks and attempts without mixing their claims', async () => {
    const tail = encodePayloadTail(['"alerts":', '[1,2,3]', '}']);
    const decode = (t: Buffer) => JSON.parse(Buffer.from(t.toString().split('.')[1], 'base64url').toString());
    const a = await signer.sign({
      ...claims,
      appId: 'app-a',
      deliveryId: 'd-a',
      type: 'full-payload',
      bodyClaim: 'message',
      bodyJson: '{"sent_alert_count":0,',
      bodyTail: tail,
    });
    const b = await signer.sign({
      ...claims,
      appId: 'app-b',
      deliveryId: 'd-b',
      type: 'full-payload',
      bodyClaim: 'message',
      bodyJson: '{"sent_alert_count":3,',
      bodyTail: tail,
    });
    expect(decode(a.token)).toMatchObject({
      aud: 'app-a',
      jti: 'd-a',
      message: { sent_alert_count: 0, alerts: [1, 2, 3] },
    });
    expect(decode(b.token)).toMatchObject({
      aud: 'app-b',
      jti: 'd-b',
      message: { sent_alert_count: 3, alerts: [1, 2, 3] },
    });
    expect(tail.base64url).toBe(Buffer.from('"alerts":[1,2,3]}}').toString('base64url'));
  });
});
