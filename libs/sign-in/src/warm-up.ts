import { performance } from 'node:perf_hooks';
import { Injectable, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { OidcProviderHost } from './oidc/oidc-provider.host';
import { SamlCredentials } from './saml/saml-credentials';
import { warmUpSchemaValidator } from './saml/samlify';

/**
 * The sign-in routes' first-use work, done at boot (before the server listens, so before the
 * service is ready) instead of inside someone's first sign-in, where it blocked every request of
 * the process: the OpenID Connect provider, the SAML signing key (an RSA key and its certificate
 * are made on first need) and the SAML schema validator's first run (seconds of compilation).
 * A step that fails (the database is down at boot) is left to first use, as before.
 */
@Injectable()
export class SignInWarmUp implements OnApplicationBootstrap {
  private readonly logger = new Logger('SignIn');

  constructor(private readonly refs: ModuleRef) {}

  async onApplicationBootstrap(): Promise<void> {
    const started = performance.now();
    await Promise.all([
      this.step('the OpenID Connect provider', () => this.refs.get(OidcProviderHost, { strict: false }).provider()),
      this.step('the SAML signing key', () => this.refs.get(SamlCredentials, { strict: false }).current()),
    ]);
    await this.step('the SAML schema validator', warmUpSchemaValidator);
    this.logger.log(`sign-in ready for first use in ${Math.round(performance.now() - started)} ms`);
  }

  private async step(what: string, run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (err) {
      this.logger.warn({ err }, `${what} not prepared at boot; its first use prepares it`);
    }
  }
}

/** Import after the sign-in module. */
@Module({ providers: [SignInWarmUp] })
export class SignInWarmUpModule {}
