/** What the API answers for sources, syncs and the guard settings: never a secret, only whether one is set. */
import type { OneRosterRestSettings, RosterSourceEntity, RosterSyncEntity, SftpSettings } from '@edu/persistence';
import { DEFAULT_FULL_SYNC_HOURS, DEFAULT_STABLE_SECONDS } from './source-input';
import type { SyncSettings } from './sync-settings.repository';

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function sourceView(s: RosterSourceEntity): Record<string, unknown> {
  const base = {
    id: s.id,
    tenant_id: s.tenantId,
    type: s.type,
    name: s.name,
    enabled: s.enabled,
  };
  const times = { created_at: iso(s.createdAt), updated_at: iso(s.updatedAt) };
  if (s.type === 'oneroster-rest') {
    const r = s.settings as OneRosterRestSettings;
    return {
      ...base,
      version: r.version,
      base_url: r.base_url,
      token_url: r.token_url,
      client_id: r.client_id,
      ...(r.scope ? { scope: r.scope } : {}),
      client_secret_set: s.secretEncrypted !== null,
      schedule: s.schedule,
      delta: r.delta ?? true,
      full_sync_interval_hours: r.full_sync_interval_hours ?? DEFAULT_FULL_SYNC_HOURS,
      delta_cursor: s.deltaCursor,
      last_full_sync_at: iso(s.lastFullSyncAt),
      ...times,
    };
  }
  if (s.type === 'sftp') {
    const f = s.settings as SftpSettings;
    return {
      ...base,
      username: s.sftpUsername,
      password_set: s.sftpPasswordHash !== null,
      public_keys: f.public_keys ?? [],
      stable_seconds: f.stable_seconds ?? DEFAULT_STABLE_SECONDS,
      ...times,
    };
  }
  return { ...base, ...times };
}

export function syncView(s: RosterSyncEntity): Record<string, unknown> {
  return {
    id: s.id,
    tenant_id: s.tenantId,
    source_id: s.sourceId,
    source_type: s.sourceType,
    trigger: s.trigger,
    requested_mode: s.requestedMode,
    mode: s.mode,
    status: s.status,
    origin: s.origin,
    created_at: iso(s.createdAt),
    started_at: iso(s.startedAt),
    ended_at: iso(s.finishedAt),
    import_id: s.importId,
    data_version: s.dataVersion,
    rows: s.rows,
    counts: s.counts,
    diff: s.diff,
    errors: s.errors,
    warnings: s.warnings,
    decided_by: s.decidedBy,
    decided_at: iso(s.decidedAt),
    notified_at: iso(s.notifiedAt),
  };
}

export function settingsView(tenantId: string, s: SyncSettings & { updatedAt: Date | null }): Record<string, unknown> {
  return {
    tenant_id: tenantId,
    deletion_threshold_percent: s.deletionThresholdPercent,
    notify_url: s.notifyUrl,
    notify_secret_set: s.notifySecretEncrypted !== null,
    updated_at: iso(s.updatedAt),
  };
}
