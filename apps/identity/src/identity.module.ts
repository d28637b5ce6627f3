import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Pool } from 'pg';
import { AuthModule } from '@edu/auth';
import { scopeBasesOf } from '@edu/domain';
import {
  HealthModule,
  LoadShedModule,
  loadShedSettings,
  LoggingModule,
  MetricsModule,
  readinessCheck,
  ServiceLoad,
} from '@edu/http';
import { DeploymentQuotaReader, PersistenceModule, postgresPoolProbe } from '@edu/persistence';
import { RateLimitModule } from '@edu/rate-limit';
import { SigningKeyStore } from '@edu/signing';
import { IdentityEnv } from './config/identity.env';
import { KeysModule } from './keys/keys.module';
import { localKeyGetter } from './keys/local-key-getter';
import { OAuthModule } from './oauth/oauth.module';
import { AppsModule } from './apps/apps.module';
import { IdentityCommonModule } from './common/common.module';
import { ConstituenciesModule } from './constituencies/constituencies.module';
import { DeploymentsModule } from './deployments/deployments.module';
import { DevelopersModule } from './developers/developers.module';
import { IdentityRepositoriesModule } from './directory/repositories.module';
import { IdentityProvidersModule } from './identity-providers/identity-providers.module';
import { TenantsModule } from './tenants/tenants.module';
import { UsersModule } from './users/users.module';
import { VanityDomainsModule } from './vanity-domains/vanity-domains.module';
import { identityRoutes } from './rate-limit-routes';
import { AuditModule } from './audit/audit.module';
import { DeploymentSharingModule } from './sharing/sharing.module';
import { SignInModule, SignInWarmUpModule } from '@edu/sign-in';
import { SignInHostModule } from './sign-in-host/sign-in-host.module';
import { SignInLogApiModule } from './sign-in-log/sign-in-log-api.module';

/** The identity service: Identity API, OAuth token endpoint and the global JWKS. */
@Module({})
export class IdentityModule {
  static forRoot(env: IdentityEnv): DynamicModule {
    return {
      module: IdentityModule,
      global: true,
      imports: [
        LoggingModule.forRoot({ level: env.LOG_LEVEL, service: 'identity' }),
        PersistenceModule.forRoot({ url: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE, applicationName: 'identity' }),
        MetricsModule,
        HealthModule.forRoot({
          inject: [DataSource, ServiceLoad],
          useFactory: (ds: DataSource, load: ServiceLoad) => [
            readinessCheck('postgres', () => ds.query('SELECT 1')),
            load.readiness(),
          ],
        }),
        KeysModule,
        AuthModule.forRootAsync({
          inject: [SigningKeyStore],
          useFactory: (store: SigningKeyStore) => ({
            issuer: env.TOKEN_ISSUER,
            audience: env.TOKEN_AUDIENCE,
            scopeBases: scopeBasesOf(env),
            keys: { getKey: localKeyGetter(store) },
          }),
        }),
        // After the auth module: their guards run after the token guard, shedding first.
        LoadShedModule.forRoot({
          settings: loadShedSettings(env),
          pool: { inject: [Pool], useFactory: (pool: Pool) => postgresPoolProbe(pool) },
        }),
        RateLimitModule.forRoot({
          service: 'identity',
          env,
          classify: identityRoutes,
          overrides: { inject: [DataSource], useFactory: (ds: DataSource) => new DeploymentQuotaReader(ds) },
        }),
        OAuthModule,
        IdentityCommonModule,
        IdentityRepositoriesModule,
        AppsModule,
        IdentityProvidersModule,
        TenantsModule,
        DeploymentsModule,
        DevelopersModule,
        ConstituenciesModule,
        UsersModule,
        VanityDomainsModule,
        AuditModule,
        DeploymentSharingModule,
        SignInModule.forHost(SignInHostModule),
        SignInWarmUpModule,
        SignInLogApiModule,
      ],
      providers: [{ provide: IdentityEnv, useValue: env }],
      exports: [IdentityEnv],
    };
  }
}
