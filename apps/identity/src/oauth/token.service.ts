import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DEVELOPER_SCOPE_KEYS, OPERATOR_SCOPE_KEYS, ScopeCatalog } from '@edu/domain';
import { SCOPE_CATALOG } from '@edu/auth';
import { AppEntity, DeploymentEntity, TenantEntity } from '@edu/persistence';
import { AccessTokenSigner, safeEqual, verifyClientSecret, type AccessTokenClaims } from '@edu/signing';
import { IdentityEnv } from '../config/identity.env';
import { ClientAuthenticationFailed, OAuthError } from '@edu/http';
import type { ClientCredentials, TokenRequest } from './token-request';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** Who authenticated at the token endpoint. */
export type AuthenticatedClient =
  | { kind: 'operator' }
  | { kind: 'app'; app: AppEntity }
  | { kind: 'deployment'; deployment: DeploymentEntity & { app: AppEntity } };

// Verified against when a client id is unknown, so unknown ids cost the same time as wrong secrets.
const DUMMY_HASH = 'sha256$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** OAuth 2.0 client credentials (design §3): who is asking, for which tenant, with which scopes. */
@Injectable()
export class TokenService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly signer: AccessTokenSigner,
    private readonly env: IdentityEnv,
    @Inject(SCOPE_CATALOG) private readonly catalog: ScopeCatalog,
  ) {}

  /** A token for a client that authenticated (`authenticate`), as the request asks. */
  async issue(client: AuthenticatedClient, req: TokenRequest): Promise<TokenResponse> {
    const claims = await this.claimsFor(client, req);
    const signed = await this.signer.sign(claims);
    return {
      access_token: signed.token,
      token_type: 'Bearer',
      expires_in: signed.expiresIn,
      scope: claims.scope.join(' '),
    };
  }

  /** Who the credentials belong to; ClientAuthenticationFailed when they do not authenticate. */
  async authenticate(c: ClientCredentials): Promise<AuthenticatedClient> {
    const refuse = (registered?: string) => new ClientAuthenticationFailed(c.viaBasic, registered);
    if (safeEqual(c.clientId, this.env.OPERATOR_CLIENT_ID)) {
      if (!safeEqual(c.clientSecret, this.env.OPERATOR_CLIENT_SECRET)) throw refuse(this.env.OPERATOR_CLIENT_ID);
      return { kind: 'operator' };
    }
    const app = await this.ds.getRepository(AppEntity).findOne({ where: { clientId: c.clientId } });
    if (app) {
      if (!verifyClientSecret(c.clientSecret, app.clientSecretHash)) throw refuse(app.clientId);
      return { kind: 'app', app };
    }
    const deployment = await this.ds
      .getRepository(DeploymentEntity)
      .findOne({ where: { clientId: c.clientId }, relations: { app: true } });
    if (deployment?.clientSecretHash && deployment.app) {
      if (!verifyClientSecret(c.clientSecret, deployment.clientSecretHash)) throw refuse(c.clientId);
      return { kind: 'deployment', deployment: deployment as DeploymentEntity & { app: AppEntity } };
    }
    verifyClientSecret(c.clientSecret, DUMMY_HASH);
    throw refuse();
  }

  private async claimsFor(client: AuthenticatedClient, req: TokenRequest): Promise<AccessTokenClaims> {
    switch (client.kind) {
      case 'operator': {
        if (req.tenantId) throw new OAuthError('invalid_request', 'Operator tokens are not tenant-specific');
        const scope = this.grant(req.scopes, this.catalog.uris(OPERATOR_SCOPE_KEYS));
        return { sub: 'operator', client_id: this.env.OPERATOR_CLIENT_ID, scope };
      }
      case 'deployment': {
        const d = client.deployment;
        if (req.tenantId && req.tenantId !== d.tenantId)
          throw new OAuthError('invalid_request', 'These credentials belong to another tenant');
        return this.tenantClaims(d, d.app, req.credentials.clientId, req.scopes);
      }
      case 'app': {
        const app = client.app;
        if (req.tenantId) {
          const d = await this.ds
            .getRepository(DeploymentEntity)
            .findOne({ where: { appId: app.id, tenantId: req.tenantId } });
          if (!d) throw new OAuthError('unauthorized_client', 'The app is not deployed at this tenant');
          return this.tenantClaims(d, app, app.clientId, req.scopes);
        }
        if (app.ownerType !== 'developer') {
          throw new OAuthError('invalid_request', 'A tenant-owned app must name the tenant with "tenant_id"');
        }
        const scope = this.grant(req.scopes, this.catalog.uris(DEVELOPER_SCOPE_KEYS));
        return { sub: app.id, client_id: app.clientId, scope, developer_id: app.ownerId };
      }
    }
  }

  private async tenantClaims(
    d: DeploymentEntity,
    app: AppEntity,
    clientId: string,
    requested?: string[],
  ): Promise<AccessTokenClaims> {
    const tenant = await this.ds.getRepository(TenantEntity).findOne({ where: { id: d.tenantId } });
    const operatorOnly = new Set(this.catalog.uris(OPERATOR_SCOPE_KEYS));
    const allowed = d.scope.filter((s) => !operatorOnly.has(s));
    const scope = this.grant(requested, allowed);
    return {
      sub: app.id,
      client_id: clientId,
      scope,
      tenant_id: d.tenantId,
      deployment_id: d.id,
      region: tenant?.regionId,
    };
  }

  /** Requested ∩ allowed (all allowed when nothing was requested); nothing left = invalid_scope. */
  private grant(requested: string[] | undefined, allowed: string[]): string[] {
    const granted = requested ? [...new Set(requested)].filter((s) => allowed.includes(s)) : [...allowed];
    if (granted.length === 0)
      throw new OAuthError('invalid_scope', 'None of the requested scopes can be granted to this client');
    return granted;
  }
}
