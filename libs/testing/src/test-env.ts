/** Base environment for app modules under test (each spec adds DATABASE_URL etc.). */
export function baseTestEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SCHEMA_BASE: 'https://api.edu.example',
    TOKEN_AUDIENCE: 'https://api.edu.example',
    ...overrides,
  };
}
