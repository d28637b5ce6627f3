import { BaseEnv } from './env';
import { loadConfig } from './load-config';
import { trustProxyValue, WithTrafficControl } from './traffic-env';

class Env extends WithTrafficControl(BaseEnv) {}
const base = { DATABASE_URL: 'postgres://u@localhost/db' };
const problems = (env: Record<string, string>) => {
  try {
    loadConfig(Env, { ...base, ...env });
    return '';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('WithTrafficControl', () => {
  it('needs REDIS_URL while rate limits are on, not when they are off', () => {
    expect(problems({})).toContain('REDIS_URL must be a redis:// URL');
    expect(problems({ RATE_LIMIT_ENABLED: 'false' })).toBe('');
    expect(loadConfig(Env, { ...base, REDIS_URL: 'redis://localhost:6379' })).toMatchObject({
      RATE_LIMIT_READ_PER_CLIENT: 1200,
      RATE_LIMIT_WINDOW_SECONDS: 60,
      SHED_EVENT_LOOP_LAG_MS: 500,
    });
  });

  it('names quotas and bounds outside their range', () => {
    const message = problems({
      REDIS_URL: 'redis://r',
      RATE_LIMIT_READ_PER_CLIENT: '0',
      RATE_LIMIT_WINDOW_SECONDS: 'often',
      SHED_DB_POOL_WAIT_MS: '-1',
    });
    for (const name of ['RATE_LIMIT_READ_PER_CLIENT', 'RATE_LIMIT_WINDOW_SECONDS', 'SHED_DB_POOL_WAIT_MS'])
      expect(message).toContain(name);
  });

  it('takes a hop count or a list of proxy addresses for TRUST_PROXY, nothing else', () => {
    const ok = { REDIS_URL: 'redis://r' };
    for (const value of ['1', 'loopback', '10.0.0.0/8, 172.16.0.0/12', 'uniquelocal,::1'])
      expect(problems({ ...ok, TRUST_PROXY: value })).toBe('');
    for (const value of ['true', '0', '11', '10.0.0.0/99', 'everyone'])
      expect(problems({ ...ok, TRUST_PROXY: value })).toContain('TRUST_PROXY');
    expect([trustProxyValue(undefined), trustProxyValue('2'), trustProxyValue('loopback, 10.0.0.0/8')]).toEqual([
      false,
      2,
      ['loopback', '10.0.0.0/8'],
    ]);
  });
});
