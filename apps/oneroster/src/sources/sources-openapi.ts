/** The OpenAPI description of the roster source, sync and guard routes (merged into the OneRoster document). */
import { addResponse, jsonResponse, type DocumentedOperation, type SchemaObject } from '@edu/http';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str: SchemaObject = { type: 'string' };
const nstr: SchemaObject = { type: 'string', nullable: true };
const uuid: SchemaObject = { type: 'string', format: 'uuid' };
const time: SchemaObject = { type: 'string', format: 'date-time', nullable: true };
const int: SchemaObject = { type: 'integer', minimum: 0 };
const wrapper = (key: string, schema: object): SchemaObject => ({
  type: 'object',
  required: [key],
  properties: { [key]: schema },
  additionalProperties: false,
});

const schedule: SchemaObject = {
  nullable: true,
  oneOf: [
    wrapper('interval_minutes', { type: 'integer', minimum: 1 }),
    {
      type: 'object',
      required: ['cron'],
      properties: { cron: str, timezone: str },
      additionalProperties: false,
    },
  ],
};

const issue: SchemaObject = {
  type: 'object',
  required: ['message'],
  properties: { message: str, file: str, line: int, column: str, url: str, field: str },
};

const typeDiff: SchemaObject = {
  type: 'object',
  properties: {
    active: int,
    listed: int,
    created: int,
    deleted: int,
    deleted_percent: { type: 'number' },
    deleted_sample: { type: 'array', items: str },
  },
};

export const SOURCE_SCHEMAS: Record<string, SchemaObject> = {
  RosterSource: {
    type: 'object',
    description: 'A roster source; secrets are never returned (client_secret_set, password_set)',
    required: ['id', 'tenant_id', 'type', 'name', 'enabled', 'created_at', 'updated_at'],
    properties: {
      id: uuid,
      tenant_id: uuid,
      type: { type: 'string', enum: ['oneroster-rest', 'sftp', 'upload'] },
      name: str,
      enabled: { type: 'boolean' },
      version: { type: 'string', enum: ['1.1', '1.2'] },
      base_url: str,
      token_url: str,
      client_id: str,
      scope: str,
      client_secret_set: { type: 'boolean' },
      schedule,
      delta: { type: 'boolean' },
      full_sync_interval_hours: int,
      delta_cursor: nstr,
      last_full_sync_at: time,
      username: str,
      password_set: { type: 'boolean' },
      public_keys: { type: 'array', items: str },
      stable_seconds: int,
      created_at: time,
      updated_at: time,
    },
    additionalProperties: false,
  },
  RosterSync: {
    type: 'object',
    description: 'One sync and its report',
    required: ['id', 'tenant_id', 'source_id', 'source_type', 'trigger', 'status', 'created_at', 'counts', 'errors'],
    properties: {
      id: uuid,
      tenant_id: uuid,
      source_id: { ...uuid, nullable: true },
      source_type: str,
      trigger: { type: 'string', enum: ['schedule', 'manual', 'sftp'] },
      requested_mode: { type: 'string', enum: ['full', 'delta'], nullable: true },
      mode: { type: 'string', enum: ['full', 'delta'], nullable: true },
      status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed', 'held', 'rejected'] },
      origin: nstr,
      created_at: time,
      started_at: time,
      ended_at: time,
      import_id: { ...uuid, nullable: true },
      data_version: nstr,
      rows: int,
      counts: {
        type: 'object',
        description: 'Per object type: created, updated, deleted, unchanged',
        additionalProperties: { type: 'object', additionalProperties: int },
      },
      diff: {
        type: 'object',
        nullable: true,
        description:
          'The staged diff: per object type, what the sync would change; over_threshold lists why it is held',
        properties: {
          threshold_percent: { type: 'number' },
          types: { type: 'object', additionalProperties: typeDiff },
          over_threshold: { type: 'array', items: str },
        },
      },
      errors: { type: 'array', items: issue },
      warnings: { type: 'array', items: issue },
      decided_by: nstr,
      decided_at: time,
      notified_at: time,
    },
    additionalProperties: false,
  },
  RosterSyncSettings: {
    type: 'object',
    required: ['tenant_id', 'deletion_threshold_percent', 'notify_url', 'notify_secret_set', 'updated_at'],
    properties: {
      tenant_id: uuid,
      deletion_threshold_percent: { type: 'number', minimum: 0, maximum: 100 },
      notify_url: nstr,
      notify_secret_set: { type: 'boolean' },
      updated_at: time,
    },
    additionalProperties: false,
  },
};

type Doc = (op: DocumentedOperation) => void;

const ERROR_TEXT: Record<number, string> = {
  400: 'invaliddata, naming the body field or query parameter',
  401: 'unauthorisedrequest: missing, invalid or expired token',
  403: 'forbidden: the operator, or (reads, sync now, decisions) the school admin app of this tenant',
  404: "unknownobject: no such tenant, source or sync (another tenant's answers the same)",
  409: 'invaliddata: a sync of the source is already open, the sync is not held, or the SFTP user name is taken',
  415: 'invaliddata: the body must be application/json',
  503: 'server_busy: PostgreSQL did not answer (Retry-After: 5)',
};

function describe(summary: string, success: Record<number, [string, object] | string>, errors: number[]): Doc {
  return (op) => {
    op.operation.summary = summary;
    const responses = (op.operation.responses ??= {});
    for (const status of Object.keys(responses)) if (/^2/.test(status)) delete responses[status];
    for (const [status, s] of Object.entries(success))
      responses[status] = typeof s === 'string' ? { description: s } : jsonResponse(s[0], s[1]);
    for (const status of [401, 403, 503, ...errors])
      addResponse(op, status, jsonResponse(ERROR_TEXT[status] ?? 'Error', ref('StatusInfoSet')));
  };
}

const json = (op: DocumentedOperation, description: string) => {
  op.operation.requestBody = {
    required: true,
    description,
    content: { 'application/json': { schema: { type: 'object' } } },
  };
};

const SOURCE = wrapper('source', ref('RosterSource'));
const SYNC = wrapper('sync', ref('RosterSync'));
const SETTINGS = wrapper('settings', ref('RosterSyncSettings'));

const DESCRIBERS: Record<string, Doc> = {
  'RosterSourcesController.create': (op) => {
    describe(
      'Add a roster source (oneroster-rest, sftp or upload)',
      { 201: ['The source', SOURCE] },
      [400, 404, 409, 415],
    )(op);
    json(op, 'type and its fields (docs/operators/connecting-a-school-sis.md); secrets are write-only');
  },
  'RosterSourcesController.list': describe(
    "The tenant's roster sources",
    { 200: ['Sources', wrapper('sources', { type: 'array', items: ref('RosterSource') })] },
    [404],
  ),
  'RosterSourcesController.get': describe('One roster source', { 200: ['The source', SOURCE] }, [404]),
  'RosterSourcesController.patch': (op) => {
    describe('Change a roster source (its type stays)', { 200: ['The source', SOURCE] }, [400, 404, 409, 415])(op);
    json(op, 'The fields to change; "schedule": null removes the schedule');
  },
  'RosterSourcesController.remove': describe(
    'Delete a roster source (its sync reports stay)',
    { 204: 'Deleted' },
    [404],
  ),
  'RosterSourcesController.sync': describe(
    'Sync now: queue a sync of the source',
    { 202: ['The queued sync (poll the Location)', SYNC] },
    [400, 404, 409],
  ),
  'RosterSyncsController.list': describe(
    "The tenant's syncs, newest first (limit, cursor, source_id, status)",
    {
      200: [
        'Syncs',
        {
          type: 'object',
          required: ['syncs'],
          properties: { syncs: { type: 'array', items: ref('RosterSync') }, next_cursor: str },
          additionalProperties: false,
        },
      ],
    },
    [400, 404],
  ),
  'RosterSyncsController.get': describe('One sync and its report', { 200: ['The sync', SYNC] }, [404]),
  'RosterSyncsController.approve': describe(
    'Approve a held sync: it is applied as diffed',
    { 202: ['The sync, queued again', SYNC] },
    [404, 409],
  ),
  'RosterSyncsController.reject': describe(
    'Reject a held sync: nothing of it is applied',
    { 200: ['The rejected sync', SYNC] },
    [404, 409],
  ),
  'SyncSettingsController.get': describe("The tenant's sync guard settings", { 200: ['Settings', SETTINGS] }, [404]),
  'SyncSettingsController.put': (op) => {
    describe(
      'Set the deletion threshold and the held-sync announcement endpoint',
      { 200: ['Settings', SETTINGS] },
      [400, 404, 415],
    )(op);
    json(op, 'deletion_threshold_percent, notify_url (null removes), notify_secret (write-only)');
  },
};

/** Documents a route of this folder; false for any other. */
export function describeSourceRoute(op: DocumentedOperation): boolean {
  const doc = DESCRIBERS[op.handler];
  doc?.(op);
  return doc !== undefined;
}
