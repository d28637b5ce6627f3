import { Controller, Get, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { LoggerModule } from 'nestjs-pino';
import { createTestApp, expectError, TestIssuer } from '@edu/testing';
import type { Principal } from '@edu/domain';
import { CurrentPrincipal, Public, RequireScopes } from './auth.decorators';
import { resourceServerAuth } from './auth.module';

const bases = {
  SCHEMA_BASE: 'https://api.edu.example',
  ONEROSTER_SCOPE_BASE: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
};
const ROSTER = 'https://purl.imsglobal.org/spec/or/v1p1/scope/roster.readonly';
const CORE = 'https://purl.imsglobal.org/spec/or/v1p1/scope/roster-core.readonly';

@Controller('t')
class ProbeController {
  @Get('open')
  @Public()
  open() {
    return { ok: true };
  }

  @Get('either')
  @RequireScopes('roster-core.readonly', 'roster.readonly')
  either(@CurrentPrincipal() who: Principal) {
    return who.kind === 'tenant' ? { tenant: who.tenantId, scopes: [...who.scopes] } : { kind: who.kind };
  }

  /** Declares nothing: the guard must refuse it for everyone. */
  @Get('undeclared')
  undeclared() {
    return { leaked: true };
  }
}

describe('AuthGuard (remote JWKS over HTTP)', () => {
  let issuer: TestIssuer;
  let app: NestExpressApplication;

  beforeAll(async () => {
    issuer = await new TestIssuer().start();
    @Module({
      imports: [
        LoggerModule.forRoot({ pinoHttp: { level: 'silent' } }),
        resourceServerAuth({
          ...bases,
          TOKEN_ISSUER: issuer.issuer,
          TOKEN_AUDIENCE: issuer.audience,
          JWKS_URL: issuer.jwksUrl,
          JWKS_CACHE_SECONDS: 60,
        }),
      ],
      controllers: [ProbeController],
    })
    class ProbeModule {}
    app = await createTestApp(ProbeModule);
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
  });

  const get = (path: string, token?: string) => {
    const r = request(app.getHttpServer()).get(path);
    return token ? r.set('Authorization', `Bearer ${token}`) : r;
  };

  it('lets public routes through without a token', async () => {
    await get('/t/open').expect(200, { ok: true });
  });

  it('accepts a token holding any one of the listed scopes and exposes the principal', async () => {
    const token = await issuer.mint({ scopes: [ROSTER], tenantId: 'tenant-1' });
    await get('/t/either', token).expect(200, { tenant: 'tenant-1', scopes: [ROSTER] });
    const core = await issuer.mint({ scopes: [CORE, 'https://other.example/x'], tenantId: 'tenant-1' });
    await get('/t/either', core).expect(200);
  });

  it('refuses a token without any listed scope with 403', async () => {
    const token = await issuer.mint({
      scopes: ['https://purl.imsglobal.org/spec/or/v1p1/scope/roster-demographics.readonly'],
      tenantId: 't',
    });
    expectError(await get('/t/either', token), 403, 'insufficient_scope');
  });

  it('denies by default: a route that declares neither @Public nor scopes is refused', async () => {
    const token = await issuer.mint({ scopes: [ROSTER, CORE], tenantId: 't' });
    const res = await get('/t/undeclared', token);
    expectError(res, 403, 'insufficient_scope');
    expect(res.body).not.toHaveProperty('leaked');
  });

  it('refuses a token with neither tenant nor developer context', async () => {
    const token = await issuer.mint({ scopes: [ROSTER] });
    expectError(await get('/t/either', token), 401, 'invalid_token');
  });

  it('refuses every attack token with 401', async () => {
    for (const [name, token] of Object.entries(await issuer.attackTokens({ scopes: [ROSTER], tenantId: 't' }))) {
      const res = await get('/t/either', token);
      if (res.status !== 401) throw new Error(`${name}: ${res.status}`);
      expectError(res, 401, 'invalid_token');
    }
  });
});

describe('AuthGuard when the JWKS cannot be fetched', () => {
  it('answers 503 with Retry-After, not 401 (the token may be good)', async () => {
    const issuer = await new TestIssuer().start();
    const token = await issuer.mint({ scopes: [ROSTER], tenantId: 't-1' });
    await issuer.stop(); // the identity service is down: nothing listens at the JWKS URL
    @Module({
      imports: [
        LoggerModule.forRoot({ pinoHttp: { level: 'silent' } }),
        resourceServerAuth({
          ...bases,
          TOKEN_ISSUER: issuer.issuer,
          TOKEN_AUDIENCE: issuer.audience,
          JWKS_URL: issuer.jwksUrl,
          JWKS_CACHE_SECONDS: 60,
        }),
      ],
      controllers: [ProbeController],
    })
    class DownModule {}
    const app = await createTestApp(DownModule);
    try {
      const res = await request(app.getHttpServer()).get('/t/either').set('Authorization', `Bearer ${token}`);
      expectError(res, 503, 'service_unavailable');
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['www-authenticate']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
