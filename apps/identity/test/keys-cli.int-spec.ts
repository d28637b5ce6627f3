import { runKeysCli, parseDuration } from '../src/keys/keys-command';
import { IdentityHarness } from './support/harness';

describe('signing key commands (keys:list, keys:stage, keys:rotate)', () => {
  let h: IdentityHarness;

  beforeAll(async () => {
    h = await IdentityHarness.start();
  });

  afterAll(async () => {
    await h?.stop();
  });

  async function keys(
    args: string[],
    env: Record<string, string> = {},
  ): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runKeysCli(
      args,
      { DATABASE_URL: h.db.url, KEY_ENCRYPTION_KEY: h.env.KEY_ENCRYPTION_KEY, ...env },
      { log: (l) => out.push(l), error: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  const jwksKids = async (): Promise<string[]> =>
    ((await h.http().get('/.well-known/jwks.json').expect(200)).body.keys as { kid: string }[]).map((k) => k.kid);
  const statusOf = async (kid: string): Promise<string> =>
    (await h.ds.query(`SELECT status FROM signing_keys WHERE kid = $1`, [kid]))[0]?.status;

  it('stages a webhook key that the JWKS publishes at once, and rotate activates exactly that key', async () => {
    const before = await jwksKids();
    const active = before.find((k) => k.startsWith('wh-'))!;
    expect(active).toBeDefined();

    const staged = await keys(['stage', '--use', 'webhook']);
    expect(staged).toMatchObject({ code: 0, err: '' });
    const kid = /Staged webhook key (wh-\S+): published in the JWKS, not signing yet\./.exec(staged.out)?.[1];
    expect(kid).toBeDefined();
    expect(staged.out).toContain(
      'Activate it with `npm run keys:rotate -- --use webhook` once it has been published for at least 10 min',
    );
    expect(await jwksKids()).toEqual(expect.arrayContaining([active, kid]));
    expect(await statusOf(kid!)).toBe('next');

    // A second stage keeps the staged key.
    const again = await keys(['stage', '--use', 'webhook']);
    expect(again.code).toBe(0);
    expect(again.out).toContain(`A webhook key is already staged: ${kid} (published since `);

    const listed = await keys(['list', '--use', 'webhook']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(new RegExp(`webhook +${active} +active +signing`));
    expect(listed.out).toMatch(new RegExp(`webhook +${kid} +next +published, not signing yet`));

    const rotated = await keys(['rotate', '--use', 'webhook', '--keep-published', '24h']);
    expect(rotated.code).toBe(0);
    expect(rotated.out).toContain(`Rotated the webhook key: ${kid} is active (the staged key).`);
    expect(rotated.out).toMatch(new RegExp(`${active} is retired and stays published until \\d{4}-\\d\\d-\\d\\dT`));
    // Staged moments ago: the command says so (the procedure waits at least 10 minutes).
    expect(rotated.err).toMatch(/^Warning: the staged key was published only \d+ s ago \(at least 10 min is advised\)/);
    expect(await statusOf(kid!)).toBe('active');
    expect(await statusOf(active)).toBe('retired');
    expect(await jwksKids()).toEqual(expect.arrayContaining([active, kid]));
    const [{ hours }] = await h.ds.query(
      `SELECT extract(epoch FROM publish_until - now()) / 3600 AS hours FROM signing_keys WHERE kid = $1`,
      [active],
    );
    expect(Number(hours)).toBeGreaterThan(23.9);
    expect(Number(hours)).toBeLessThanOrEqual(24);
  });

  it('rotates without a staged key (warning), and --keep-published 0 removes the old key from the JWKS at once', async () => {
    const active = (await jwksKids()).find((k) => k.startsWith('at-'))!;
    const r = await keys(['rotate', '--use', 'access-token', '--keep-published', '0']);
    expect(r.code).toBe(0);
    const kid = /Rotated the access-token key: (at-\S+) is active \(new\)\./.exec(r.out)?.[1];
    expect(kid).toBeDefined();
    expect(r.out).toContain(`${active} is retired and no longer published: tokens it signed are refused from now on.`);
    expect(r.err).toContain('Warning: no key was staged');
    const kids = await jwksKids();
    expect(kids).toContain(kid);
    expect(kids).not.toContain(active);
  });

  it('warns when the old key would be unpublished before what it signed expires', async () => {
    const r = await keys(['rotate', '--use', 'access-token', '--keep-published', '10m']);
    expect(r.code).toBe(0);
    expect(r.err).toContain(
      'Warning: --keep-published 10 min is short: access tokens it signed stay valid for up to ACCESS_TOKEN_TTL_SECONDS (default 1 h); keep it published for at least 61 min.',
    );
  });

  it('refuses an encryption key that does not decrypt the active key, and changes nothing', async () => {
    const count = async () => (await h.ds.query(`SELECT count(*)::int AS n FROM signing_keys`))[0].n as number;
    const n = await count();
    const r = await keys(['stage', '--use', 'webhook'], {
      KEY_ENCRYPTION_KEY: 'another-key-encryption-key-of-32-chars-or-more',
    });
    expect(r.code).toBe(1);
    expect(r.err).toContain('Refused: KEY_ENCRYPTION_KEY does not decrypt the active webhook key.');
    expect(await count()).toBe(n);
  });

  it('refuses a regional database (a subscriber of the identity replication)', async () => {
    await h.ds.query(
      `CREATE SUBSCRIPTION keys_cli_test CONNECTION 'host=127.0.0.1 dbname=nowhere' PUBLICATION nothing WITH (connect = false)`,
    );
    try {
      const r = await keys(['rotate', '--use', 'webhook']);
      expect(r.code).toBe(1);
      expect(r.err).toContain('Refused: this database subscribes to the identity replication (keys_cli_test)');
    } finally {
      await h.ds.query(`ALTER SUBSCRIPTION keys_cli_test SET (slot_name = NONE)`);
      await h.ds.query(`DROP SUBSCRIPTION keys_cli_test`);
    }
  });

  it.each([
    [[], 'unknown command ""'],
    [['rotate'], 'rotate needs --use webhook, --use access-token, --use oidc or --use saml'],
    [['stage', '--use', 'signing'], '--use must be webhook, access-token, oidc or saml (got "signing")'],
    [
      ['rotate', '--use', 'webhook', '--keep-published', 'a day'],
      '--keep-published must be a duration such as 24h, 90m or 0 (got "a day")',
    ],
    [['list', '--keep-published', '1h'], 'unexpected argument "--keep-published" for list'],
  ])('refuses bad arguments %j with exit code 2 and the usage', async (args, message) => {
    const r = await keys(args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).toContain('usage: npm run keys:list');
  });

  it('refuses the demo encryption key in production', async () => {
    const r = await keys(['list'], { NODE_ENV: 'production', KEY_ENCRYPTION_KEY: '' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('KEY_ENCRYPTION_KEY must be changed from its demo value in production');
  });

  it('reads durations', () => {
    expect([
      parseDuration('24h'),
      parseDuration('90m'),
      parseDuration('30s'),
      parseDuration('7d'),
      parseDuration('0'),
      parseDuration('250ms'),
    ]).toEqual([86_400_000, 5_400_000, 30_000, 604_800_000, 0, 250]);
    expect([parseDuration('12'), parseDuration('1.5h'), parseDuration('-1h'), parseDuration('')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
