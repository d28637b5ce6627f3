import Redis from 'ioredis';
import { testRedis } from '@edu/testing';
import { BudgetStore, BudgetStoreUnavailable } from './budget-store';
import { groupRules, type Quotas } from './policies';
import { RateLimits } from './rate-limits';

const quotas = (q: Partial<Quotas>): Quotas => ({
  RATE_LIMIT_WINDOW_SECONDS: 2,
  RATE_LIMIT_TOKEN_PER_CLIENT: 2,
  RATE_LIMIT_TOKEN_PER_ADDRESS: 100,
  RATE_LIMIT_TOKEN_FAILURES_PER_CLIENT_ADDRESS: 2,
  RATE_LIMIT_TOKEN_FAILURES_PER_ADDRESS: 3,
  RATE_LIMIT_READ_PER_CLIENT: 3,
  RATE_LIMIT_READ_PER_TENANT: 4,
  RATE_LIMIT_WRITE_PER_CLIENT: 2,
  RATE_LIMIT_WRITE_PER_TENANT: 100,
  RATE_LIMIT_GRADEBOOK_WRITE_PER_CLIENT: 2,
  RATE_LIMIT_GRADEBOOK_WRITE_PER_TENANT: 100,
  RATE_LIMIT_ALERT_SUBMISSIONS: 2,
  RATE_LIMIT_ANONYMOUS_PER_ADDRESS: 100,
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: 100,
  RATE_LIMIT_SIGN_IN_ASSETS_PER_ADDRESS: 100,
  ...q,
});

/** Budgets against the test Redis: two stores on two connections stand for two replicas. */
describe('budgets in Redis', () => {
  const { url, prefix } = testRedis();
  const connections: Redis[] = [];
  const store = (windowSeconds = 2) => {
    const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
    connections.push(redis);
    return new BudgetStore(redis, prefix, windowSeconds);
  };
  const ready = (r: Redis) =>
    new Promise<void>((resolve) => (r.status === 'ready' ? resolve() : r.once('ready', () => resolve())));

  afterAll(() => connections.forEach((c) => c.disconnect()));

  it('two replicas spend one counter; the tenant budget is only spent by requests its clients were allowed', async () => {
    const [a, b] = [store(), store()];
    await Promise.all(connections.map(ready));
    const rules = groupRules(quotas({}));
    const [limitsA, limitsB] = [new RateLimits(a, rules), new RateLimits(b, rules)];
    const subject = (client: string) => ({ group: 'read' as const, address: '192.0.2.1', client, tenant: 'tenant:t1' });
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await (i % 2 ? limitsB : limitsA).check(subject('c1')));
    expect(outcomes.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(outcomes[3]).toMatchObject({
      refusedBy: 'read-client',
      statuses: [{ policy: 'read-client', remaining: 0 }],
    });
    // c1's refusals did not spend the tenant: another client still gets the tenant's last one.
    expect((await limitsA.check(subject('c2'))).statuses.map((s) => [s.policy, s.remaining])).toEqual([
      ['read-client', 2],
      ['read-tenant', 0],
    ]);
    expect(await limitsB.check(subject('c3'))).toMatchObject({ allowed: false, refusedBy: 'read-tenant' });
  });

  it('applies the operator\u2019s quota for a deployment, and the default when the settings cannot be read', async () => {
    const rules = groupRules(quotas({}));
    const limits = new RateLimits(store(), rules, {
      forDeployment: async (id) => (id === 'd1' ? { read: 1 } : Promise.reject(new Error('database down'))),
    });
    await Promise.all(connections.map(ready));
    const subject = (deploymentId: string) => ({
      group: 'read' as const,
      address: 'x',
      client: `deployment:${deploymentId}`,
      deploymentId,
    });
    expect((await limits.check(subject('d1'))).budgets[0].quota).toBe(1);
    expect((await limits.check(subject('d1'))).allowed).toBe(false);
    expect((await limits.check(subject('d2'))).budgets[0].quota).toBe(3);
  });

  it('failed client authentications spend budgets per address and per client id at that address; only successes spend the client\u2019s own', async () => {
    // A window no slow machine outlasts mid-test: every count below is in one window.
    const limits = new RateLimits(store(600), groupRules(quotas({})));
    await Promise.all(connections.map(ready));
    const client = `token:partner-${prefix}`;
    /** One token request: checked, then settled with its outcome when it was let through. */
    const attempt = async (address: string, outcome: 'success' | 'failure', id = client) => {
      const subject = { group: 'token' as const, address, client: id };
      const decision = await limits.check(subject);
      if (!decision.allowed) return `429 ${decision.refusedBy}`;
      await limits.settle(subject, decision, outcome);
      return outcome;
    };
    const guesses = [];
    for (let i = 0; i < 4; i++) guesses.push(await attempt('198.51.100.1', 'failure'));
    expect(guesses).toEqual([
      'failure',
      'failure',
      '429 token-failures-client-address',
      '429 token-failures-client-address',
    ]);
    // The secret's holder elsewhere is not refused, and its successes spend only its own budget (2).
    expect([await attempt('198.51.100.2', 'success'), await attempt('198.51.100.2', 'success')]).toEqual([
      'success',
      'success',
    ]);
    expect(await attempt('198.51.100.3', 'success')).toBe('429 token-client');
    // The guesser's address runs out of failures (3) whichever client id it names.
    expect(await attempt('198.51.100.1', 'failure', 'token:other')).toBe('failure');
    expect(await attempt('198.51.100.1', 'failure', 'token:third')).toBe('429 token-failures-address');
  });

  it('without Redis: reads are allowed, tokens counted in the process, writes refused', async () => {
    const dead = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
    });
    const store = new BudgetStore(dead, prefix, 2);
    await expect(store.spend('read-client', 3, 'c')).rejects.toBeInstanceOf(BudgetStoreUnavailable);
    const limits = new RateLimits(store, groupRules(quotas({})));
    expect(await limits.check({ group: 'read', address: 'a', client: 'c' })).toMatchObject({
      allowed: true,
      storeDown: 'allow',
      statuses: [],
    });
    const tokens = [];
    for (let i = 0; i < 3; i++) {
      const subject = { group: 'token' as const, address: 'a', client: 'token:c' };
      const decision = await limits.check(subject);
      if (decision.allowed) await limits.settle(subject, decision, 'success');
      tokens.push(decision);
    }
    expect(tokens.map((t) => [t.allowed, t.storeDown, t.refusedBy])).toEqual([
      [true, 'local', undefined],
      [true, 'local', undefined],
      [false, 'local', 'token-client'],
    ]);
    expect(await limits.check({ group: 'gradebook-write', address: 'a', client: 'c' })).toMatchObject({
      allowed: false,
      storeDown: 'refuse',
      retryAfterSeconds: 5,
    });
    dead.disconnect();
  });
});
