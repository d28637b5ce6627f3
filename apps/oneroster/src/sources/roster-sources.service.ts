import { Inject, Injectable } from '@nestjs/common';
import { ApiError, ApiErrorCode, isUuid, type Principal, type WebhookTargetPolicy } from '@edu/domain';
import type { RosterSourceEntity, RosterSourceSettings, RosterSourceType, RosterSyncMode } from '@edu/persistence';
import { bodyObject, oneOf, onlyFields } from './input-checks';
import { RosterSourcesRepository, SftpUsernameTaken, type RosterSourceChanges } from './roster-sources.repository';
import { RosterSyncsRepository } from './roster-syncs.repository';
import { hashSftpPassword, SourceSecrets } from './source-secrets';
import {
  DEFAULT_FULL_SYNC_HOURS,
  DEFAULT_STABLE_SECONDS,
  parseCreate,
  parsePatch,
  type SourceInput,
} from './source-input';
import { sourceView, syncView } from './source-views';
import { SourcesAccess } from './sources-access';
import { sourceTargetPolicy, type RosterSourcesSettings } from './sources.env';
import { SOURCES_SETTINGS } from './sources-settings.token';
import { SyncQueueClient } from './sync-queue.client';

type View = Record<string, unknown>;

const DEFAULT_NAMES: Record<RosterSourceType, string> = {
  'oneroster-rest': 'OneRoster API',
  sftp: 'SFTP drop',
  upload: 'Operator upload',
};

/** The roster sources of a tenant: CRUD, their schedules in the queue, and "sync now". */
@Injectable()
export class RosterSourcesService {
  private readonly policy: WebhookTargetPolicy;
  private readonly secrets: SourceSecrets;

  constructor(
    private readonly sources: RosterSourcesRepository,
    private readonly syncs: RosterSyncsRepository,
    private readonly access: SourcesAccess,
    private readonly queue: SyncQueueClient,
    @Inject(SOURCES_SETTINGS) env: RosterSourcesSettings,
  ) {
    this.policy = sourceTargetPolicy(env);
    this.secrets = new SourceSecrets(env);
  }

  async create(who: Principal, rawTenantId: string, body: unknown): Promise<View> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'configure');
    const { type, input } = parseCreate(body, this.policy);
    const passwordHash = input.password ? await hashSftpPassword(input.password) : null;
    const stored = await this.saving(() =>
      this.sources.create({
        tenantId,
        type,
        name: input.name ?? DEFAULT_NAMES[type],
        enabled: input.enabled ?? true,
        settings: this.settingsOf(type, input, {}),
        secretEncrypted: input.clientSecret ? this.secrets.seal(input.clientSecret) : null,
        sftpUsername: input.username ?? null,
        sftpPasswordHash: passwordHash,
        schedule: input.schedule ?? null,
      }),
    );
    await this.reschedule(stored);
    return sourceView(stored);
  }

  async list(who: Principal, rawTenantId: string): Promise<View[]> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'read');
    return (await this.sources.list(tenantId)).map(sourceView);
  }

  async get(who: Principal, rawTenantId: string, id: string): Promise<View> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'read');
    return sourceView(await this.find(tenantId, id));
  }

  async patch(who: Principal, rawTenantId: string, id: string, body: unknown): Promise<View> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'configure');
    const source = await this.find(tenantId, id);
    const input = parsePatch(body, source.type, this.policy);
    const changes: RosterSourceChanges = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.schedule !== undefined ? { schedule: input.schedule } : {}),
      ...(input.username !== undefined ? { sftpUsername: input.username } : {}),
      ...(input.clientSecret !== undefined ? { secretEncrypted: this.secrets.seal(input.clientSecret) } : {}),
      ...(input.password !== undefined ? { sftpPasswordHash: await hashSftpPassword(input.password) } : {}),
      settings: this.settingsOf(source.type, input, source.settings),
    };
    const moved =
      (changes.settings as { base_url?: string }).base_url !== (source.settings as { base_url?: string }).base_url;
    // Another system's changes do not continue this one's: the next read is a full one.
    if (moved) Object.assign(changes, { deltaCursor: null, lastFullSyncAt: null });
    const updated = await this.saving(() => this.sources.update(source, changes));
    if (input.schedule !== undefined || input.enabled !== undefined) await this.reschedule(updated);
    return sourceView(updated);
  }

  async remove(who: Principal, rawTenantId: string, id: string): Promise<void> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'configure');
    if (!isUuid(id) || !(await this.sources.delete(tenantId, id.toLowerCase())))
      throw ApiError.notFound('Roster source');
    await this.queue.schedule(id.toLowerCase(), tenantId, null);
  }

  /** "Sync now": a queued sync (202). One open sync per source: a second is refused (409). */
  async syncNow(who: Principal, rawTenantId: string, id: string, body: unknown): Promise<View> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'operate');
    const source = await this.find(tenantId, id);
    const mode = this.requestedMode(body, source.type);
    if (source.type === 'upload')
      throw new ApiError(
        ApiErrorCode.Conflict,
        `An upload source syncs when a package is uploaded: POST /admin/tenants/${tenantId}/roster-imports`,
      );
    if (!source.enabled) throw new ApiError(ApiErrorCode.Conflict, 'The source is disabled: enable it first');
    const sync = await this.syncs.createQueued({
      tenantId,
      sourceId: source.id,
      sourceType: source.type,
      trigger: 'manual',
      requestedMode: mode,
      origin: null,
    });
    if (!sync) {
      const open = await this.syncs.openSync(tenantId, source.id);
      throw new ApiError(
        ApiErrorCode.Conflict,
        `A sync of this source is already ${open?.status ?? 'open'}: ${open?.id ?? ''}`.trim(),
      );
    }
    await this.queue.enqueueSync(sync.id, tenantId);
    return syncView(sync);
  }

  private requestedMode(body: unknown, type: RosterSourceType): RosterSyncMode | null {
    if (body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0))
      return null;
    const b = bodyObject(body);
    onlyFields(b, ['mode']);
    const mode = oneOf(b, 'mode', ['full', 'delta'] as const) ?? null;
    if (mode && type !== 'oneroster-rest')
      throw new ApiError(ApiErrorCode.InvalidRequest, 'mode: only a oneroster-rest source reads full or delta', {
        parameter: 'mode',
      });
    return mode;
  }

  private async find(tenantId: string, id: string): Promise<RosterSourceEntity> {
    const source = isUuid(id) ? await this.sources.get(tenantId, id.toLowerCase()) : null;
    if (!source) throw ApiError.notFound('Roster source');
    return source;
  }

  /** The stored settings: the current ones with the body's changes, defaults filled in. */
  private settingsOf(type: RosterSourceType, input: SourceInput, current: RosterSourceSettings): RosterSourceSettings {
    if (type === 'oneroster-rest')
      return {
        delta: true,
        full_sync_interval_hours: DEFAULT_FULL_SYNC_HOURS,
        ...(current as object),
        ...input.rest,
      } as RosterSourceSettings;
    if (type === 'sftp')
      return {
        public_keys: [],
        stable_seconds: DEFAULT_STABLE_SECONDS,
        ...(current as object),
        ...input.sftp,
      } as RosterSourceSettings;
    return {};
  }

  private async saving<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof SftpUsernameTaken)
        throw new ApiError(ApiErrorCode.Conflict, 'username: another SFTP source uses this name', {
          parameter: 'username',
        });
      throw err;
    }
  }

  private async reschedule(source: RosterSourceEntity): Promise<void> {
    await this.queue.schedule(source.id, source.tenantId, source.enabled ? source.schedule : null);
  }
}
