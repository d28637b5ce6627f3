import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ConfigValidationError, loadConfig, loadConfigOrExit } from '@edu/config';
import { baseTestEnv, createTestApp, createTestDatabase, TestIssuer, type TestDatabase } from '@edu/testing';
import { ImsxErrorFilter } from '../src/common/imsx-error.filter';
import { OnerosterEnv, publicBaseUrl } from '../src/oneroster.env';
import { OnerosterModule } from '../src/oneroster.module';

/** The configuration error `loadConfig` throws for `env`; fails the test when it loads. */
function configError(env: NodeJS.ProcessEnv): ConfigValidationError {
  let loaded: OnerosterEnv | undefined;
  try {
    loaded = loadConfig(OnerosterEnv, env);
  } catch (err) {
    if (err instanceof ConfigValidationError) return err;
    throw err;
  }
  throw new Error(`expected a configuration error, but it loaded: ${JSON.stringify(loaded)}`);
}

describe('oneroster boot', () => {
  let db: TestDatabase;
  let issuer: TestIssuer;
  let app: NestExpressApplication;
  const required = () => ({ DATABASE_URL: db.url, JWKS_URL: issuer.jwksUrl, TOKEN_ISSUER: issuer.issuer });

  beforeAll(async () => {
    db = await createTestDatabase();
    issuer = await new TestIssuer().start();
    const env = loadConfig(OnerosterEnv, baseTestEnv({ ...required(), PUBLIC_BASE_URL: 'https://roster.test' }));
    app = await createTestApp(OnerosterModule.forRoot(env), { errorFilter: new ImsxErrorFilter() });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
    await db?.drop();
  });

  it('refuses to boot on bad configuration, naming each variable', () => {
    const error = configError(
      baseTestEnv({
        DATABASE_URL: db.url,
        SERVICE_REGION: 'MARS',
        JWKS_URL: 'not a url',
        PUBLIC_BASE_URL: 'https://roster.test',
      }),
    );
    expect(error.message).toContain('SERVICE_REGION');
    expect(error.message).toContain('JWKS_URL');
  });

  describe('PUBLIC_BASE_URL', () => {
    it.each(['production', 'test'])('is required when NODE_ENV=%s', (mode) => {
      const error = configError(baseTestEnv({ ...required(), NODE_ENV: mode }));
      expect(error.problems).toEqual([
        expect.stringMatching(/^PUBLIC_BASE_URL: .*required unless NODE_ENV=development.*\(not set\)$/),
      ]);
    });

    it('defaults to http://localhost:<PORT> in development only', () => {
      expect(publicBaseUrl(loadConfig(OnerosterEnv, baseTestEnv({ ...required(), NODE_ENV: 'development' })))).toBe(
        'http://localhost:3001',
      );
      expect(
        publicBaseUrl(loadConfig(OnerosterEnv, baseTestEnv({ ...required(), NODE_ENV: 'development', PORT: '4100' }))),
      ).toBe('http://localhost:4100');
    });

    it('is used as given, without trailing slashes, path prefix kept', () => {
      const env = (url: string) =>
        loadConfig(OnerosterEnv, baseTestEnv({ ...required(), NODE_ENV: 'production', PUBLIC_BASE_URL: url }));
      expect(publicBaseUrl(env('https://au-nsw.api.edu.example'))).toBe('https://au-nsw.api.edu.example');
      expect(publicBaseUrl(env('https://au-nsw.api.edu.example/'))).toBe('https://au-nsw.api.edu.example');
      expect(publicBaseUrl(env('https://gateway.example/edu/'))).toBe('https://gateway.example/edu');
    });

    it.each([
      'au-nsw.api.edu.example',
      'ftp://au-nsw.api.edu.example',
      'https://au-nsw.api.edu.example/?host=x',
      'https://au-nsw.api.edu.example/#x',
      'https://user:pass@au-nsw.api.edu.example',
      'not a url',
    ])('refuses %p, in development too', (url) => {
      for (const mode of ['production', 'development']) {
        const error = configError(baseTestEnv({ ...required(), NODE_ENV: mode, PUBLIC_BASE_URL: url }));
        expect(error.problems).toEqual([expect.stringMatching(/^PUBLIC_BASE_URL: /)]);
      }
    });

    it('stops the boot with exit code 78 naming it when production has none', () => {
      const writes: string[] = [];
      jest.replaceProperty(process, 'env', baseTestEnv({ ...required(), NODE_ENV: 'production' }));
      jest
        .spyOn(process.stderr, 'write')
        .mockImplementation((chunk: string | Uint8Array) => writes.push(String(chunk)) > 0);
      const exit = jest.spyOn(process, 'exit').mockImplementation((code?: string | number | null) => {
        throw new Error(`exit ${code}`);
      });
      let codes: unknown[];
      try {
        expect(() => loadConfigOrExit(OnerosterEnv, 'oneroster')).toThrow('exit 78');
        codes = exit.mock.calls.map(([code]) => code);
      } finally {
        jest.restoreAllMocks();
      }
      expect(codes).toEqual([78]);
      expect(writes).toHaveLength(1);
      const line = JSON.parse(writes[0] as string);
      expect(line).toMatchObject({ level: 'fatal', service: 'oneroster' });
      expect(line.problems).toEqual([expect.stringMatching(/^PUBLIC_BASE_URL: /)]);
    });
  });

  it('serves health and metrics', async () => {
    const ready = await request(app.getHttpServer()).get('/health/ready').expect(200);
    expect(ready.body.info).toEqual({ postgres: { status: 'up' }, load: { status: 'up' } });
    await request(app.getHttpServer()).get('/metrics').expect(200);
  });

  it('answers unknown routes with the imsx status payload', async () => {
    const res = await request(app.getHttpServer()).get('/ims/oneroster/v1p1/nothing-here').expect(404);
    expect(res.body.statusInfoSet[0]).toMatchObject({
      imsx_codeMajor: 'failure',
      imsx_severity: 'error',
      imsx_CodeMinor: {
        imsx_codeMinorField: [
          { imsx_codeMinorFieldName: 'TargetEndSystem', imsx_codeMinorFieldValue: 'unknownobject' },
        ],
      },
    });
  });
});
