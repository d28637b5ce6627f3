import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ConfigValidationError, loadConfig } from '@edu/config';
import { baseTestEnv, createTestApp, createTestDatabase, TestIssuer, type TestDatabase } from '@edu/testing';
import { ImsxErrorFilter } from '../src/common/imsx-error.filter';
import { OnerosterEnv } from '../src/config/oneroster.env';
import { OnerosterModule } from '../src/oneroster.module';

describe('oneroster boot', () => {
  let db: TestDatabase;
  let issuer: TestIssuer;
  let app: NestExpressApplication;

  beforeAll(async () => {
    db = await createTestDatabase();
    issuer = await new TestIssuer().start();
    const env = loadConfig(OnerosterEnv, baseTestEnv({ DATABASE_URL: db.url, JWKS_URL: issuer.jwksUrl, TOKEN_ISSUER: issuer.issuer }));
    app = await createTestApp(OnerosterModule.forRoot(env), { errorFilter: new ImsxErrorFilter() });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
    await db?.drop();
  });

  it('refuses to boot on bad configuration, naming each variable', () => {
    expect(() => loadConfig(OnerosterEnv, baseTestEnv({ DATABASE_URL: db.url, SERVICE_REGION: 'MARS', JWKS_URL: 'not a url' }))).toThrow(ConfigValidationError);
    try {
      loadConfig(OnerosterEnv, baseTestEnv({ DATABASE_URL: db.url, SERVICE_REGION: 'MARS', JWKS_URL: 'not a url' }));
    } catch (err) {
      expect((err as Error).message).toContain('SERVICE_REGION');
      expect((err as Error).message).toContain('JWKS_URL');
    }
  });

  it('serves health and metrics', async () => {
    const ready = await request(app.getHttpServer()).get('/health/ready').expect(200);
    expect(ready.body.info).toEqual({ postgres: { status: 'up' } });
    await request(app.getHttpServer()).get('/metrics').expect(200);
  });

  it('answers unknown routes with the imsx status payload', async () => {
    const res = await request(app.getHttpServer()).get('/ims/oneroster/v1p1/nothing-here').expect(404);
    expect(res.body.statusInfoSet[0]).toMatchObject({
      imsx_codeMajor: 'failure',
      imsx_severity: 'error',
      imsx_CodeMinor: { imsx_codeMinorField: [{ imsx_codeMinorFieldName: 'TargetEndSystem', imsx_codeMinorFieldValue: 'unknownobject' }] },
    });
  });
});
