import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@edu/domain';
import { bodyObject, badField, number, onlyFields, outboundUrl, text } from './input-checks';
import { SourceSecrets } from './source-secrets';
import { settingsView } from './source-views';
import { SourcesAccess } from './sources-access';
import { sourceTargetPolicy, type RosterSourcesSettings } from './sources.env';
import { SOURCES_SETTINGS } from './sources-settings.token';
import { SyncSettingsRepository } from './sync-settings.repository';

/** The tenant's guard: the deletion threshold and where held syncs are announced. */
@Injectable()
export class SyncSettingsService {
  private readonly secrets: SourceSecrets;

  constructor(
    private readonly settings: SyncSettingsRepository,
    private readonly access: SourcesAccess,
    @Inject(SOURCES_SETTINGS) private readonly env: RosterSourcesSettings,
  ) {
    this.secrets = new SourceSecrets(env);
  }

  async get(who: Principal, rawTenantId: string): Promise<Record<string, unknown>> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'read');
    return settingsView(tenantId, await this.settings.get(tenantId));
  }

  /** Replaces the settings; a field left out keeps its value (`notify_url: null` removes the endpoint). */
  async put(who: Principal, rawTenantId: string, body: unknown): Promise<Record<string, unknown>> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'configure');
    const b = bodyObject(body);
    onlyFields(b, ['deletion_threshold_percent', 'notify_url', 'notify_secret']);
    const current = await this.settings.get(tenantId);
    const threshold = number(b, 'deletion_threshold_percent', 0, 100) ?? current.deletionThresholdPercent;
    let notifyUrl = current.notifyUrl;
    if (b.notify_url === null) notifyUrl = null;
    else if (b.notify_url !== undefined)
      notifyUrl = outboundUrl(b, 'notify_url', sourceTargetPolicy(this.env), { query: true });
    let sealed = current.notifySecretEncrypted;
    if (b.notify_secret === null) sealed = null;
    else if (b.notify_secret !== undefined) sealed = this.secrets.seal(text(b, 'notify_secret', { min: 16, max: 500 }));
    if (notifyUrl && !sealed)
      throw badField('notify_secret', 'is required with notify_url (announcements are signed with it)');
    const saved = await this.settings.put(tenantId, {
      deletionThresholdPercent: threshold,
      notifyUrl,
      notifySecretEncrypted: notifyUrl ? sealed : null,
    });
    return settingsView(tenantId, saved);
  }
}
