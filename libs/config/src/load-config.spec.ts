import { IsInt, IsString, Min } from 'class-validator';
import { BaseEnv } from './env';
import { ConfigValidationError, loadConfig, maskedConfig, Secret } from './load-config';
import { RefuseInProduction, ToInt } from './transforms';

class ExampleEnv extends BaseEnv {
  @ToInt()
  @IsInt()
  @Min(1)
  WORKERS = 4;

  @Secret()
  @IsString()
  @RefuseInProduction('demo-secret')
  API_SECRET = 'demo-secret';
}

const good = { DATABASE_URL: 'postgres://u@localhost:5432/db' };

describe('loadConfig', () => {
  it('applies defaults and converts types', () => {
    const env = loadConfig(ExampleEnv, { ...good, WORKERS: '8', PORT: '4000' });
    expect(env.WORKERS).toBe(8);
    expect(env.PORT).toBe(4000);
    expect(env.LOG_LEVEL).toBe('info');
    expect(env.TOKEN_AUDIENCE).toBe('https://api.edu.example');
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig(ExampleEnv, { DATABASE_URL: 'mysql://nope', PORT: 'eighty', WORKERS: '0', LOG_LEVEL: 'loud' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const problems = (error as ConfigValidationError).problems.join('\n');
    for (const name of ['DATABASE_URL', 'PORT', 'WORKERS', 'LOG_LEVEL']) expect(problems).toContain(name);
    expect((error as Error).message).toMatch(/^Invalid configuration/);
  });

  it('refuses demo secrets in production and never echoes secret values', () => {
    const refused = () => loadConfig(ExampleEnv, { ...good, NODE_ENV: 'production' });
    expect(refused).toThrow(/API_SECRET must be changed/);
    expect(refused).toThrow(expect.objectContaining({ message: expect.not.stringContaining('demo-secret') }));
    expect(loadConfig(ExampleEnv, { ...good, NODE_ENV: 'production', API_SECRET: 'a-real-secret' }).API_SECRET).toBe(
      'a-real-secret',
    );
  });

  it('masks secrets for logging', () => {
    const masked = maskedConfig(loadConfig(ExampleEnv, good));
    expect(masked.API_SECRET).toBe('***');
    expect(masked.DATABASE_URL).toBe('***');
    expect(masked.WORKERS).toBe(4);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig(ExampleEnv, { ...good, WORKERS: '' }).WORKERS).toBe(4);
  });
});
