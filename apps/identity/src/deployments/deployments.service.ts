import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { SCOPE_CATALOG } from '@edu/auth';
import { ApiError, ApiErrorCode, ScopeCatalog, type Principal } from '@edu/domain';
import { generateClientId, generateClientSecret, hashClientSecret } from '@edu/signing';
import { AppRepository } from '../directory/app.repository';
import { AccessPolicy, type AccessMode, type TenantActor } from '../common/access-policy';
import { conflict, fieldError, uniqueOr409 } from '../common/api-errors';
import { uuidOr404 } from '../common/ids';
import { TenantRepository } from '../directory/tenant.repository';
import { DeploymentRepository, type DeploymentWithApp } from '../directory/deployment.repository';
import { mergeSettings } from './deployment-settings';
import { namedQuotaSettings } from './rate-limit-settings';
import { toDeploymentView, type DeploymentCredentialsView, type DeploymentView } from './deployment.view';
import type { CreateDeploymentDto, UpdateDeploymentDto } from './dto/deployment.dto';
import { scopeGrantProblem } from './grantable-scopes';

const ALREADY_DEPLOYED = 'The app is already deployed at this tenant';

/**
 * Apps deployed at the tenant named in the path (spec 2.4): the token's own tenant, or any tenant
 * for the operator (platform.admin), who may also grant the alerts scopes.
 */
@Injectable()
export class DeploymentsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly deployments: DeploymentRepository,
    private readonly apps: AppRepository,
    private readonly tenants: TenantRepository,
    private readonly policy: AccessPolicy,
    @Inject(SCOPE_CATALOG) private readonly catalog: ScopeCatalog,
  ) {}

  async list(who: Principal, rawTenantId: string, rawAppId?: string): Promise<DeploymentView[]> {
    const { tenantId } = await this.actor(who, 'read', rawTenantId);
    if (rawAppId === undefined) return (await this.deployments.list(tenantId)).map((d) => toDeploymentView(d, d.app));
    const d = await this.found(tenantId, rawAppId);
    return [toDeploymentView(d, d.app)];
  }

  async create(who: Principal, rawTenantId: string, dto: CreateDeploymentDto): Promise<DeploymentView> {
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          const actor = await this.actor(who, 'write', rawTenantId, m);
          this.checkQuotaSettings(actor, dto.settings);
          const app = await this.apps.findDeployable(actor.tenantId, dto.app_id.toLowerCase(), m);
          if (!app) throw fieldError('app_id', 'no app with this id can be deployed at this tenant');
          if (await this.deployments.find(actor.tenantId, app.id, m)) throw conflict(ALREADY_DEPLOYED);
          this.checkScopes(actor, dto.scope, []);
          const saved = await this.deployments.save(
            {
              tenantId: actor.tenantId,
              appId: app.id,
              scope: [...dto.scope],
              clientId: null,
              clientSecretHash: null,
              settings: mergeSettings({}, dto.settings),
            },
            m,
          );
          return toDeploymentView(saved, app);
        }),
      ALREADY_DEPLOYED,
    );
  }

  /**
   * Replaces the scope list when given (scopes the caller cannot grant may be kept or dropped,
   * never added) and sets the named settings, keeping the others.
   */
  async update(
    who: Principal,
    rawTenantId: string,
    rawAppId: string,
    dto: UpdateDeploymentDto,
  ): Promise<DeploymentView> {
    return this.ds.transaction(async (m) => {
      const actor = await this.actor(who, 'write', rawTenantId, m);
      const d = await this.found(actor.tenantId, rawAppId, m);
      this.checkQuotaSettings(actor, dto.settings);
      if (dto.scope !== undefined) {
        this.checkScopes(actor, dto.scope, d.scope);
        d.scope = [...dto.scope];
      }
      d.settings = mergeSettings(d.settings, dto.settings);
      const { app, ...row } = d;
      await this.deployments.save(row, m);
      return toDeploymentView(d, app);
    });
  }

  async remove(who: Principal, rawTenantId: string, rawAppId: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const { tenantId } = await this.actor(who, 'write', rawTenantId, m);
      const d = await this.found(tenantId, rawAppId, m);
      await this.deployments.delete(tenantId, d.appId, m);
    });
  }

  /**
   * Issues (or rotates) per-deployment client credentials (design §3): a stock OAuth client using
   * them gets a token for this tenant only. The secret is shown only in this response.
   */
  async issueCredentials(who: Principal, rawTenantId: string, rawAppId: string): Promise<DeploymentCredentialsView> {
    const clientSecret = generateClientSecret();
    return this.ds.transaction(async (m) => {
      const { tenantId } = await this.actor(who, 'write', rawTenantId, m);
      const d = await this.found(tenantId, rawAppId, m);
      const clientId = d.clientId ?? generateClientId('dep');
      const { app: _app, ...row } = d;
      await this.deployments.save({ ...row, clientId, clientSecretHash: hashClientSecret(clientSecret) }, m);
      return { client_id: clientId, client_secret: clientSecret };
    });
  }

  /** Who acts on which tenant; for the operator the tenant must exist (404 otherwise, like a foreign id). */
  private async actor(who: Principal, mode: AccessMode, rawTenantId: string, m?: EntityManager): Promise<TenantActor> {
    const actor = this.policy.pathTenantOrOperator(who, mode, rawTenantId);
    if (actor.by === 'operator' && !(await this.tenants.exists(actor.tenantId, m))) throw ApiError.notFound('Tenant');
    return actor;
  }

  private async found(tenantId: string, rawAppId: string, m?: EntityManager): Promise<DeploymentWithApp> {
    const d = await this.deployments.find(tenantId, uuidOr404(rawAppId, 'Deployment'), m);
    if (!d) throw ApiError.notFound('Deployment');
    return d;
  }

  /** Rate-limit quotas are the operator's: a tenant must not raise its own apps' budgets. */
  private checkQuotaSettings(actor: TenantActor, settings: object | undefined): void {
    const named = namedQuotaSettings(settings);
    if (actor.by !== 'operator' && named.length > 0) {
      throw new ApiError(
        ApiErrorCode.InsufficientScope,
        `Only the operator (platform.admin) sets rate limits: settings.${named.join(', settings.')}`,
      );
    }
  }

  private checkScopes(actor: TenantActor, scopes: string[], held: string[]): void {
    for (const [i, scope] of scopes.entries()) {
      const problem = scopeGrantProblem(this.catalog, actor.by, scope, held);
      if (problem) throw fieldError('scope', `[${i}] ${problem}: ${scope}`);
    }
  }
}
