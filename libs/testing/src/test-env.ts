/** Base environment for app modules under test (each spec adds DATABASE_URL etc.). */
export function baseTestEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SCHEMA_BASE: 'https://api.edu.example',
    TOKEN_AUDIENCE: 'https://api.edu.example',
    // Off unless a spec is about them: specs of other features send bursts no partner would,
    // and a loaded test machine stalls event loops (rate-limit and shedding specs turn them on).
    RATE_LIMIT_ENABLED: 'false',
    SHED_EVENT_LOOP_LAG_MS: '0',
    SHED_DB_POOL_WAIT_MS: '0',
    ...overrides,
  };
}
