import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Provider from 'oidc-provider';
import { DataSource } from 'typeorm';
import { trustProxyValue } from '@edu/config';
import { SigningKeyStore, verifyClientSecret } from '@edu/signing';
import { SignInEnv, oidcIssuer } from '../sign-in.env';
import { ClientAuthentications } from '@edu/rate-limit';
import { AccountFinder } from '../accounts/account-finder';
import { BrandStore } from '../ui/brand/brand-store';
import { SignInRepository } from '../sign-in.repository';
import { AppClientAdapter, SAML_COMPLETE_PATH } from './client-adapter';
import { reportClientAuthentications } from './client-authentication-outcomes';
import { PayloadWriteBatch } from './payload-writes';
import { PostgresOidcAdapter, sweepExpired } from './postgres-adapter';
import { ProviderPrefetch } from './provider-prefetch';
import { providerConfiguration } from './provider-config';
import { SignInSql } from '../sign-in-sql';

const KEY_CHECK_MS = 60_000;
const SWEEP_MS = 5 * 60_000;

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The OpenID Connect provider (oidc-provider) of this replica. It holds no state of its own:
 * artifacts are in PostgreSQL and the signing key is the active `oidc` key of the global JWKS,
 * so the provider is rebuilt, within a minute, when that key rotates.
 */
@Injectable()
export class OidcProviderHost implements OnModuleDestroy {
  private readonly logger = new Logger('OidcProvider');
  private current?: Promise<{ provider: Provider; handler: Handler; kid: string }>;
  private checkedAt = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly env: SignInEnv,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly pool: SignInSql,
    private readonly keys: SigningKeyStore,
    private readonly repo: SignInRepository,
    private readonly accounts: AccountFinder,
    private readonly brands: BrandStore,
    private readonly authentications: ClientAuthentications,
    private readonly prefetch: ProviderPrefetch,
  ) {
    this.sweeper = setInterval(
      () => void sweepExpired(this.ds).catch((err: unknown) => this.logger.warn({ err }, 'sign-in sweep failed')),
      SWEEP_MS,
    );
    this.sweeper.unref();
  }

  get issuer(): string {
    return oidcIssuer(this.env);
  }

  async provider(): Promise<Provider> {
    return (await this.load()).provider;
  }

  /** Hands an HTTP request to the provider's own router. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [{ handler }] = await Promise.all([this.load(), this.prefetch.load(req)]);
    await handler(req, res);
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  private async load(): Promise<{ provider: Provider; handler: Handler; kid: string }> {
    if (!this.current) {
      this.current = this.build();
      this.checkedAt = Date.now();
      this.current.catch(() => (this.current = undefined));
      return this.current;
    }
    if (Date.now() - this.checkedAt > KEY_CHECK_MS) {
      this.checkedAt = Date.now();
      const [built, active] = await Promise.all([this.current, this.keys.activeKey('oidc')]);
      if (active.kid !== built.kid) {
        this.logger.log(`Signing key changed to ${active.kid}: rebuilding the OpenID Connect provider`);
        this.current = this.build();
      }
    }
    return this.current;
  }

  private async build(): Promise<{ provider: Provider; handler: Handler; kid: string }> {
    const { activeKid, keys } = await this.keys.signingJwks('oidc');
    const clients = new AppClientAdapter(this.repo, `${this.issuer}${SAML_COMPLETE_PATH}`);
    const config = providerConfiguration({
      env: this.env,
      accounts: this.accounts,
      brandFor: (hostname) => this.brands.forHost(hostname),
      signingKeys: keys,
      adapter: (name: string) => (name === 'Client' ? clients : new PostgresOidcAdapter(name, this.pool)),
    });
    const provider = new Provider(this.issuer, config);
    provider.proxy = Boolean(trustProxyValue(this.env.TRUST_PROXY));
    // First, so it wraps everything: a request's writes go in one round trip before its answer.
    provider.use((_ctx, next) => PayloadWriteBatch.around(this.pool, next));
    // Apps' secrets are stored as salted hashes, never in clear: compare against the hash.
    provider.Client.prototype.compareClientSecret = function compare(this: { clientSecret?: string }, actual: string) {
      return Promise.resolve(typeof this.clientSecret === 'string' && verifyClientSecret(actual, this.clientSecret));
    };
    reportClientAuthentications(provider, this.authentications);
    provider.on('server_error', (_ctx, err) => this.logger.error({ err }, 'OpenID Connect provider error'));
    return { provider, handler: provider.callback() as unknown as Handler, kid: activeKid };
  }
}
