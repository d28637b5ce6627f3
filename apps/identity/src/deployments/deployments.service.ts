import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { SCOPE_CATALOG } from '@edu/auth';
import { ApiError, ScopeCatalog, type Principal, type ScopeKey } from '@edu/domain';
import { generateClientId, generateClientSecret, hashClientSecret } from '@edu/signing';
import { AppRepository } from '../apps/app.repository';
import { AccessPolicy } from '../common/access-policy';
import { conflict, fieldError, uniqueOr409 } from '../common/api-errors';
import { uuidOr404 } from '../common/ids';
import { DeploymentRepository, type DeploymentWithApp } from './deployment.repository';
import { toDeploymentView, type DeploymentCredentialsView, type DeploymentView } from './deployment.view';
import type { CreateDeploymentDto, UpdateDeploymentDto } from './dto/deployment.dto';

/**
 * Scopes a tenant may grant to apps it deploys. Alerts scopes are enabled only by the operator
 * (spec §5), developer and operator scopes mean nothing in a tenant-context token.
 */
export const TENANT_GRANTABLE_SCOPES: readonly ScopeKey[] = [
  'id.tenant-core.readonly',
  'id.tenant-core.write',
  'roster-core.readonly',
  'roster.readonly',
  'roster-demographics.readonly',
  'resource.readonly',
  'gradebook.readonly',
  'gradebook.createput',
  'gradebook.delete',
];

const ALREADY_DEPLOYED = 'The app is already deployed at this tenant';

/** Apps deployed by the tenant named in the path, which must be the token's tenant (spec 2.4). */
@Injectable()
export class DeploymentsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly deployments: DeploymentRepository,
    private readonly apps: AppRepository,
    private readonly policy: AccessPolicy,
    @Inject(SCOPE_CATALOG) private readonly catalog: ScopeCatalog,
  ) {}

  async list(who: Principal, rawTenantId: string, rawAppId?: string): Promise<DeploymentView[]> {
    const tenantId = this.policy.pathTenant(who, 'read', rawTenantId);
    if (rawAppId === undefined) return (await this.deployments.list(tenantId)).map((d) => toDeploymentView(d, d.app));
    const d = await this.found(tenantId, rawAppId);
    return [toDeploymentView(d, d.app)];
  }

  async create(who: Principal, rawTenantId: string, dto: CreateDeploymentDto): Promise<DeploymentView> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          const app = await this.apps.findDeployable(tenantId, dto.app_id.toLowerCase(), m);
          if (!app) throw fieldError('app_id', 'no app with this id can be deployed at this tenant');
          if (await this.deployments.find(tenantId, app.id, m)) throw conflict(ALREADY_DEPLOYED);
          this.checkScopes(dto.scope, []);
          const saved = await this.deployments.save({ tenantId, appId: app.id, scope: [...dto.scope], clientId: null, clientSecretHash: null, settings: {} }, m);
          return toDeploymentView(saved, app);
        }),
      ALREADY_DEPLOYED,
    );
  }

  /** Replaces the scope list. Scopes the tenant cannot grant may be kept or dropped, never added. */
  async update(who: Principal, rawTenantId: string, rawAppId: string, dto: UpdateDeploymentDto): Promise<DeploymentView> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    return this.ds.transaction(async (m) => {
      const d = await this.found(tenantId, rawAppId, m);
      this.checkScopes(dto.scope, d.scope);
      d.scope = [...dto.scope];
      const { app, ...row } = d;
      await this.deployments.save(row, m);
      return toDeploymentView(d, app);
    });
  }

  async remove(who: Principal, rawTenantId: string, rawAppId: string): Promise<void> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    await this.ds.transaction(async (m) => {
      const d = await this.found(tenantId, rawAppId, m);
      await this.deployments.delete(tenantId, d.appId, m);
    });
  }

  /**
   * Issues (or rotates) per-deployment client credentials (design §3): a stock OAuth client using
   * them gets a token for this tenant only. The secret is shown only in this response.
   */
  async issueCredentials(who: Principal, rawTenantId: string, rawAppId: string): Promise<DeploymentCredentialsView> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    const clientSecret = generateClientSecret();
    return this.ds.transaction(async (m) => {
      const d = await this.found(tenantId, rawAppId, m);
      const clientId = d.clientId ?? generateClientId('dep');
      const { app: _app, ...row } = d;
      await this.deployments.save({ ...row, clientId, clientSecretHash: hashClientSecret(clientSecret) }, m);
      return { client_id: clientId, client_secret: clientSecret };
    });
  }

  private async found(tenantId: string, rawAppId: string, m?: EntityManager): Promise<DeploymentWithApp> {
    const d = await this.deployments.find(tenantId, uuidOr404(rawAppId, 'Deployment'), m);
    if (!d) throw ApiError.notFound('Deployment');
    return d;
  }

  private checkScopes(scopes: string[], held: string[]): void {
    const grantable = new Set(this.catalog.uris(TENANT_GRANTABLE_SCOPES));
    const i = scopes.findIndex((s) => !grantable.has(s) && !held.includes(s));
    if (i >= 0) {
      const known = this.catalog.isKnown(scopes[i]);
      throw fieldError('scope', `[${i}] ${known ? 'is not a scope a tenant can grant' : 'is not a known scope URI'}: ${scopes[i]}`);
    }
  }
}
