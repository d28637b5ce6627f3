import { createHmac, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RosterSyncEntity } from '@edu/persistence';
import { GuardedHttp } from './rest/guarded-http';
import { RosterSyncsRepository } from '../roster-syncs.repository';
import { SourceSecrets } from '../source-secrets';
import { sourceTargetPolicy, type RosterSourcesSettings } from '../sources.env';
import { SOURCES_SETTINGS } from '../sources-settings.token';
import { SyncSettingsRepository } from '../sync-settings.repository';

/** Standard Webhooks signature (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`); a `whsec_` secret is base64. */
export function standardWebhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The operational event of a held sync: a signed POST to the tenant's configured endpoint
 * (`roster_sync_settings.notify_url`), through the SSRF rule, retried by the queue's backoff.
 */
@Injectable()
export class HeldNotifier {
  private readonly logger = new Logger('HeldNotifier');
  private readonly http: GuardedHttp;
  private readonly secrets: SourceSecrets;

  constructor(
    private readonly syncs: RosterSyncsRepository,
    private readonly settings: SyncSettingsRepository,
    @Inject(SOURCES_SETTINGS) env: RosterSourcesSettings,
  ) {
    this.http = new GuardedHttp(sourceTargetPolicy(env), { timeoutMs: 10_000, maxBytes: 65_536 });
    this.secrets = new SourceSecrets(env);
  }

  /** Sends the event; throws when the endpoint did not take it (the job is retried). */
  async notify(tenantId: string, syncId: string): Promise<void> {
    const sync = await this.syncs.get(tenantId, syncId);
    if (!sync || sync.status !== 'held' || sync.notifiedAt) return;
    const s = await this.settings.get(sync.tenantId);
    if (!s.notifyUrl || !s.notifySecretEncrypted) return;
    const body = JSON.stringify(this.event(sync));
    const id = `msg_${randomUUID()}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const res = await this.http.request(s.notifyUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': standardWebhookSignature(this.secrets.open(s.notifySecretEncrypted), id, timestamp, body),
      },
      body,
    });
    if (res.status < 200 || res.status > 299) throw new Error(`the endpoint answered ${res.status}`);
    await this.syncs.markNotified(sync.tenantId, sync.id);
    this.logger.log({ syncId: sync.id, tenantId: sync.tenantId }, 'Held sync announced');
  }

  private event(sync: RosterSyncEntity): Record<string, unknown> {
    return {
      type: 'roster.sync.held',
      tenant_id: sync.tenantId,
      sync_id: sync.id,
      source_id: sync.sourceId,
      source_type: sync.sourceType,
      over_threshold: sync.diff?.over_threshold ?? [],
      threshold_percent: sync.diff?.threshold_percent,
      types: sync.diff?.types ?? {},
      report: `/admin/tenants/${sync.tenantId}/roster-syncs/${sync.id}`,
    };
  }
}
