import { Injectable } from '@nestjs/common';
import { isUuid } from '@edu/domain';
import type { FanOutPlan } from '@edu/persistence';
import { limitsObjects, SharedPeople, SharingReader, SharingScopes, type ActiveSharing } from '@edu/sharing';
import { AlertSharingRepository } from './alert-sharing.repository';

/** A message of a batch and the roster sourcedIds it names (`peopleNamed`). */
export interface MessagePeople {
  id: string;
  people: readonly string[];
}

/**
 * Where alerts apply the school's data sharing (design §11): an app receives, redelivers or reads
 * a message only when its deployment's sharing in force shares every person the message names
 * (by roster sourcedId, in the tenant's roster as it is now). Reads `deployment_sharing` (replicated
 * to regional databases) and the roster's visibility scopes (regional) through `@edu/sharing`.
 */
@Injectable()
export class AlertSharing {
  constructor(
    private readonly reader: SharingReader,
    private readonly scopes: SharingScopes,
    private readonly people: SharedPeople,
    private readonly repo: AlertSharingRepository,
  ) {}

  /** The sharing in force for the app at the tenant: everything when it has none (or is not deployed there). */
  async ofApp(tenantId: string, appId: string): Promise<ActiveSharing> {
    const deploymentId = isUuid(appId) ? await this.repo.deploymentOf(tenantId, appId.toLowerCase()) : undefined;
    return this.reader.active(tenantId, deploymentId, await this.reader.version(tenantId));
  }

  /** True when the sharing shares every person the tenant's stored message names (always under mode `all`). */
  async sharesMessage(tenantId: string, sharing: ActiveSharing, messageId: string): Promise<boolean> {
    if (!limitsObjects(sharing.spec)) return true;
    const named = await this.repo.peopleOf(tenantId, messageId);
    const shared = await this.sharedAmong(tenantId, sharing, named);
    return shared === null || named.every((p) => shared.has(p));
  }

  /**
   * Which apps a batch's fan-out serves, and which messages each may not see. Each deployment's
   * sharing is read once for the batch, at one sharing version, and its scope asked once about
   * every person of the batch. A deployment without sharing costs one cached lookup.
   */
  async planFanOut(tenantId: string, messages: readonly MessagePeople[], alertsScopes: string[]): Promise<FanOutPlan> {
    const deployments = await this.repo.receivingDeployments(tenantId, alertsScopes);
    if (deployments.length === 0 || messages.length === 0) return { appIds: [], withheld: [] };
    const version = await this.reader.version(tenantId);
    const everyone = [...new Set(messages.flatMap((m) => m.people))];
    const withheld: FanOutPlan['withheld'] = [];
    for (const d of deployments) {
      const sharing = await this.reader.active(tenantId, d.id, version);
      const shared = await this.sharedAmong(tenantId, sharing, everyone);
      if (shared === null) continue;
      for (const m of messages)
        if (!m.people.every((p) => shared.has(p))) withheld.push({ messageId: m.id, appId: d.app_id });
    }
    return { appIds: deployments.map((d) => d.app_id), withheld };
  }

  /** The ones of `sourcedIds` the sharing shares; null when it shares everyone (mode `all`). */
  private async sharedAmong(
    tenantId: string,
    sharing: ActiveSharing,
    sourcedIds: readonly string[],
  ): Promise<ReadonlySet<string> | null> {
    if (!limitsObjects(sharing.spec)) return null;
    const scopeId = await this.scopes.scopeOf(tenantId, sharing.spec);
    return scopeId === null ? new Set() : this.people.sharedUsers(scopeId, sourcedIds);
  }
}
