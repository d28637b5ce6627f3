import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, type Principal } from '@edu/domain';
import type { AuditActor, DeploymentSharingEntity, StoredSharingSpec } from '@edu/persistence';
import {
  canonicalSpec,
  recordViewChanges,
  SHARE_EVERYTHING,
  SharingPreviewer,
  SharingScopes,
  specHash,
  specProblems,
  toSpec,
  type SharingSpec,
  type View,
} from '@edu/sharing';
import { AuditEventRepository } from '../audit/audit-event.repository';
import { AccessPolicy, type TenantActor } from '../common/access-policy';
import { conflict, validationFailed } from '../common/api-errors';
import { uuidOr404 } from '../common/ids';
import { DeploymentRepository, type DeploymentWithApp } from '../directory/deployment.repository';
import { TenantRepository } from '../directory/tenant.repository';
import { DeploymentSharingRepository } from './deployment-sharing.repository';
import type { SharingSpecDto } from './dto/sharing.dto';
import { toPreviewView, toSharingView, toSpecView, type SharingPreviewView, type SharingView } from './sharing.view';

/**
 * What a school shares with each of its deployed apps (design §11): a draft the school prepares
 * and previews, then activates atomically. Only the tenant's admins (tenant-core.write) and the
 * operator read or change it; every change is in the tenant's audit trail, in its transaction.
 */
@Injectable()
export class SharingService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly sharing: DeploymentSharingRepository,
    private readonly deployments: DeploymentRepository,
    private readonly tenants: TenantRepository,
    private readonly audit: AuditEventRepository,
    private readonly previewer: SharingPreviewer,
    private readonly scopes: SharingScopes,
    private readonly policy: AccessPolicy,
  ) {}

  async get(who: Principal, rawTenantId: string, rawAppId: string): Promise<SharingView> {
    const d = await this.deployment(who, rawTenantId, rawAppId, this.ds.manager);
    const row = await this.sharing.find(this.ds.manager, d.tenantId, d.id);
    return toSharingView(row, activeOf(row), draftOf(row));
  }

  async saveDraft(who: Principal, rawTenantId: string, rawAppId: string, dto: SharingSpecDto): Promise<SharingView> {
    const problems = specProblems(dto);
    if (problems.length > 0) throw validationFailed(problems.map((p) => ({ field: p.field, problems: [p.problem] })));
    const draft = canonicalSpec(toSpec(dto as unknown as Record<string, unknown>));
    return this.ds.transaction(async (m) => {
      const { d, row } = await this.locked(who, rawTenantId, rawAppId, m);
      await this.sharing.saveDraft(m, d.tenantId, d.id, stored(draft));
      await this.audit.insert(m, {
        tenantId: d.tenantId,
        type: 'sharing.draft_saved',
        actor: actorOf(who),
        appId: d.appId,
        before: row.draft ? toSpecView(draftOf(row) as SharingSpec) : null,
        after: toSpecView(draft),
      });
      const saved = (await this.sharing.find(m, d.tenantId, d.id)) as DeploymentSharingEntity;
      return toSharingView(saved, activeOf(saved), draft);
    });
  }

  /**
   * Makes the draft the sharing in force, in one transaction with the version bump, the audit row
   * and the change feed's events of the app's view (what it now sees and no longer sees). The two
   * views are computed first (each once per spec and data version); an activation that raced
   * another finds the draft gone or changed: 409.
   */
  async activate(who: Principal, rawTenantId: string, rawAppId: string): Promise<SharingView> {
    const d0 = await this.deployment(who, rawTenantId, rawAppId, this.ds.manager);
    const before = await this.sharing.find(this.ds.manager, d0.tenantId, d0.id);
    const [from, to] = await Promise.all([
      this.viewOf(d0.tenantId, activeOf(before)),
      this.viewOf(d0.tenantId, draftOf(before)),
    ]);
    return this.ds.transaction(async (m) => {
      const { d, row } = await this.locked(who, rawTenantId, rawAppId, m);
      const draft = draftOf(row);
      if (!draft) throw conflict('There is no draft to activate: save one with PUT .../sharing first');
      if (specHash(draft) !== to.hash || specHash(activeOf(row)) !== from.hash)
        throw conflict('The sharing changed while it was being activated: read it and try again');
      await this.sharing.activate(m, d.tenantId, d.id, stored(draft), specHash(draft));
      await this.sharing.bumpVersion(m, d.tenantId);
      await recordViewChanges(m, d.tenantId, d.id, from, to);
      await this.audit.insert(m, {
        tenantId: d.tenantId,
        type: 'sharing.activated',
        actor: actorOf(who),
        appId: d.appId,
        before: toSpecView(activeOf(row)),
        after: toSpecView(draft),
      });
      const saved = (await this.sharing.find(m, d.tenantId, d.id)) as DeploymentSharingEntity;
      return toSharingView(saved, draft, null);
    });
  }

  /** The view of a spec at the tenant's current data (`to` of a missing draft: an unchanged view; the activation then fails). */
  private async viewOf(tenantId: string, spec: SharingSpec | null): Promise<View & { hash: string }> {
    if (!spec) return { scopeId: null, withhold: [], hash: '' };
    return { scopeId: await this.scopes.scopeOf(tenantId, spec), withhold: spec.withhold, hash: specHash(spec) };
  }

  async preview(
    who: Principal,
    rawTenantId: string,
    rawAppId: string,
    state: 'draft' | 'active',
  ): Promise<SharingPreviewView> {
    const d = await this.deployment(who, rawTenantId, rawAppId, this.ds.manager);
    const row = await this.sharing.find(this.ds.manager, d.tenantId, d.id);
    const spec = state === 'draft' ? draftOf(row) : activeOf(row);
    if (!spec) throw conflict('There is no draft to preview: save one with PUT .../sharing first');
    return toPreviewView(state, spec, await this.previewer.preview(d.tenantId, spec));
  }

  /** The deployment and its sharing row (created when missing), locked for this transaction. */
  private async locked(
    who: Principal,
    rawTenantId: string,
    rawAppId: string,
    m: EntityManager,
  ): Promise<{ d: DeploymentWithApp; row: DeploymentSharingEntity }> {
    const d = await this.deployment(who, rawTenantId, rawAppId, m);
    await this.sharing.ensure(m, { deploymentId: d.id, tenantId: d.tenantId, appId: d.appId });
    const row = await this.sharing.lockedFind(m, d.tenantId, d.id);
    if (!row) throw ApiError.notFound('Deployment'); // removed meanwhile
    return { d, row };
  }

  /** The deployment named by the path, for the tenant's admins or the operator; anything else 404 / 403. */
  private async deployment(
    who: Principal,
    rawTenantId: string,
    rawAppId: string,
    m: EntityManager,
  ): Promise<DeploymentWithApp> {
    const actor: TenantActor = this.policy.pathTenantOrOperator(who, 'write', rawTenantId);
    if (actor.by === 'operator' && !(await this.tenants.exists(actor.tenantId, m))) throw ApiError.notFound('Tenant');
    const d = await this.deployments.find(actor.tenantId, uuidOr404(rawAppId, 'Deployment'), m);
    if (!d) throw ApiError.notFound('Deployment');
    return d;
  }
}

function activeOf(row: DeploymentSharingEntity | null): SharingSpec {
  return row?.active ? canonicalSpec(row.active as unknown as SharingSpec) : SHARE_EVERYTHING;
}

function draftOf(row: DeploymentSharingEntity | null): SharingSpec | null {
  return row?.draft ? canonicalSpec(row.draft as unknown as SharingSpec) : null;
}

function stored(spec: SharingSpec): StoredSharingSpec {
  return JSON.parse(JSON.stringify(spec)) as StoredSharingSpec;
}

function actorOf(who: Principal): AuditActor {
  return { kind: who.kind === 'operator' ? 'operator' : 'tenant', sub: who.appId, client_id: who.clientId };
}
