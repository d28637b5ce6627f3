import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DeploymentSharingEntity, type StoredSharingSpec } from '@edu/persistence';

/**
 * `deployment_sharing` and `sharing_versions`, owned here: written by the sharing API only. Every
 * statement names the deployment's tenant beside the deployment.
 */
@Injectable()
export class DeploymentSharingRepository {
  /** The deployment's sharing row, locked until the transaction ends (one writer at a time). */
  lockedFind(m: EntityManager, tenantId: string, deploymentId: string): Promise<DeploymentSharingEntity | null> {
    return m
      .getRepository(DeploymentSharingEntity)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.deployment_id = :deploymentId AND s.tenant_id = :tenantId', { deploymentId, tenantId })
      .getOne();
  }

  find(m: EntityManager, tenantId: string, deploymentId: string): Promise<DeploymentSharingEntity | null> {
    return m.getRepository(DeploymentSharingEntity).findOneBy({ deploymentId, tenantId });
  }

  /** Creates the row when missing (concurrent creators: one inserts, the others find it). */
  async ensure(m: EntityManager, row: { deploymentId: string; tenantId: string; appId: string }): Promise<void> {
    await m
      .createQueryBuilder()
      .insert()
      .into(DeploymentSharingEntity)
      .values({ ...row, active: null, activeHash: null, activatedAt: null, draft: null, draftSavedAt: null })
      .orIgnore()
      .execute();
  }

  async saveDraft(m: EntityManager, tenantId: string, deploymentId: string, draft: StoredSharingSpec): Promise<void> {
    await m
      .getRepository(DeploymentSharingEntity)
      .update({ deploymentId, tenantId }, { draft, draftSavedAt: new Date() });
  }

  async activate(
    m: EntityManager,
    tenantId: string,
    deploymentId: string,
    active: StoredSharingSpec,
    hash: string,
  ): Promise<void> {
    await m
      .getRepository(DeploymentSharingEntity)
      .update(
        { deploymentId, tenantId },
        { active, activeHash: hash, activatedAt: new Date(), draft: null, draftSavedAt: null },
      );
  }

  /** Publishes a sharing change of the tenant, in the change's transaction (readers key caches by it). */
  async bumpVersion(m: EntityManager, tenantId: string): Promise<void> {
    await m.query(
      `INSERT INTO sharing_versions (tenant_id, version) VALUES ($1, 1)
       ON CONFLICT (tenant_id) DO UPDATE SET version = sharing_versions.version + 1`,
      [tenantId],
    );
  }
}
