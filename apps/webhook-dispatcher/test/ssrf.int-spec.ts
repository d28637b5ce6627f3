import type { LookupAddress } from 'node:dns';
import { DispatchHarness } from './support/dispatch-harness';

/**
 * SSRF at send time, with the development allowances off: the receiver is a real local server,
 * so any delivery that reaches it is a bypass. Host names go through a resolver the test controls
 * (its answers may change after registration, as with DNS rebinding).
 */
describe('webhook dispatcher: SSRF checks at send time', () => {
  const answers = new Map<string, string[]>();
  const resolver = async (hostname: string): Promise<LookupAddress[]> => {
    const ips = answers.get(hostname);
    if (!ips) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return ips.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const h = new DispatchHarness();

  beforeAll(() =>
    h.start(
      {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOWED_PORTS: '*',
        WEBHOOK_MAX_RETRIES: '0',
      },
      resolver,
    ),
  );
  afterAll(() => h.stop());

  const port = () => h.receiver.port;

  async function attemptTo(endpoint: string): Promise<Record<string, unknown>> {
    const hook = await h.webhook(endpoint);
    const [id] = await h.deliveries(hook, [(await h.message()).id]);
    await h.until([id], ['undeliverable', 'delivered'], 15_000);
    const [attempt] = await h.attempts(id);
    return attempt;
  }

  it.each([
    ['loopback literal', () => `http://127.0.0.1:${port()}/x`],
    ['IPv6 loopback', () => `http://[::1]:${port()}/x`],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${port()}/x`],
    ['IPv4-mapped IPv6, hex form', () => `http://[::ffff:7f00:1]:${port()}/x`],
    ['IPv4-compatible IPv6', () => `http://[::7f00:1]:${port()}/x`],
    ['NAT64', () => `http://[64:ff9b::7f00:1]:${port()}/x`],
    ['decimal IPv4', () => `http://2130706433:${port()}/x`],
    ['hex short IPv4', () => `http://0x7f.1:${port()}/x`],
    ['octal IPv4', () => `http://017700000001:${port()}/x`],
    ['unspecified address', () => `http://0.0.0.0:${port()}/x`],
    ['private range', () => `http://10.0.0.1:${port()}/x`],
    ['CGNAT', () => `http://100.64.0.1:${port()}/x`],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data'],
    ['multicast', () => 'http://224.0.0.1/x'],
    ['localhost name', () => `http://localhost:${port()}/x`],
  ])('refuses %s without connecting', async (_name, endpoint) => {
    const before = h.receiver.deliveries.length;
    const attempt = await attemptTo(endpoint());
    expect(attempt).toMatchObject({ error_code: 'E_BLOCKED_TARGET', response_status: null });
    expect(h.receiver.deliveries.length).toBe(before);
  });

  it('refuses a name whose DNS answer changed to a private address after registration', async () => {
    answers.set('hooks.partner.example', ['93.184.216.34']); // public when registered
    const hook = await h.webhook(`http://hooks.partner.example:${port()}/x`);
    answers.set('hooks.partner.example', ['127.0.0.1']); // rebound before the send
    const [id] = await h.deliveries(hook, [(await h.message()).id]);
    await h.until([id], ['undeliverable']);
    const [attempt] = await h.attempts(id);
    expect(attempt).toMatchObject({ error_code: 'E_BLOCKED_TARGET' });
    expect(String(attempt.error_message)).toContain('127.0.0.1');
    expect(h.receiver.byJti(id)).toHaveLength(0);
  });

  it('refuses a name with any private address among its answers', async () => {
    answers.set('mixed.partner.example', ['93.184.216.34', '10.1.2.3']);
    const attempt = await attemptTo(`http://mixed.partner.example:${port()}/x`);
    expect(attempt).toMatchObject({ error_code: 'E_BLOCKED_TARGET' });
  });

  it('records an unresolvable name as a DNS failure', async () => {
    const attempt = await attemptTo(`http://nowhere.partner.example:${port()}/x`);
    expect(attempt).toMatchObject({ error_code: 'E_DNS' });
  });

  it('refuses a port outside the allow-list at send time', async () => {
    const strict = new DispatchHarness();
    await strict.start({
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_PORTS: '443,8443',
      WEBHOOK_MAX_RETRIES: '0',
    });
    try {
      const hook = await strict.webhook(`${strict.receiver.url}/x`);
      const [id] = await strict.deliveries(hook, [(await strict.message()).id]);
      await strict.until([id], ['undeliverable']);
      const [attempt] = await strict.attempts(id);
      expect(attempt).toMatchObject({ error_code: 'E_BLOCKED_TARGET' });
      expect(String(attempt.error_message)).toContain('port');
      expect(strict.receiver.byJti(id)).toHaveLength(0);
    } finally {
      await strict.stop();
    }
  });
});
