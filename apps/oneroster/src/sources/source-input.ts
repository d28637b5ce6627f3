/**
 * The bodies of `POST` and `PATCH /admin/tenants/{tenant_id}/roster-sources[/{id}]`, checked field
 * by field: a problem is a 400 naming the field. Secrets come out in the clear here and are sealed
 * (client secrets) or hashed (SFTP passwords) by the service before they are stored.
 */
import { utils as sshUtils } from 'ssh2';
import type { WebhookTargetPolicy } from '@edu/domain';
import type { OneRosterRestSettings, RosterSourceSchedule, RosterSourceType, SftpSettings } from '@edu/persistence';
import { cronProblem, MAX_SCHEDULE_MINUTES, MIN_SCHEDULE_MINUTES } from '@edu/queue';
import { badField, bodyObject, bool, integer, oneOf, onlyFields, outboundUrl, text } from './input-checks';

export const SOURCE_TYPES: readonly RosterSourceType[] = ['oneroster-rest', 'sftp', 'upload'];

const COMMON = ['name', 'enabled'];
const REST_FIELDS = [
  ...COMMON,
  'version',
  'base_url',
  'token_url',
  'client_id',
  'client_secret',
  'scope',
  'schedule',
  'delta',
  'full_sync_interval_hours',
];
const SFTP_FIELDS = [...COMMON, 'username', 'password', 'public_keys', 'stable_seconds'];
const FIELDS: Record<RosterSourceType, readonly string[]> = {
  'oneroster-rest': REST_FIELDS,
  sftp: SFTP_FIELDS,
  upload: COMMON,
};

/** What a body sets (absent = unchanged on PATCH). */
export interface SourceInput {
  name?: string;
  enabled?: boolean;
  rest?: Partial<OneRosterRestSettings>;
  clientSecret?: string;
  /** null removes the schedule. */
  schedule?: RosterSourceSchedule | null;
  sftp?: Partial<SftpSettings>;
  username?: string;
  password?: string;
}

export const DEFAULT_STABLE_SECONDS = 10;
export const DEFAULT_FULL_SYNC_HOURS = 24;
const USERNAME = /^[a-z0-9][a-z0-9._-]{2,63}$/;

export function parseSchedule(value: unknown): RosterSourceSchedule | null {
  if (value === null) return null;
  const s = typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  if (!s) throw badField('schedule', 'must be {"interval_minutes": N}, {"cron": "...", "timezone"?: "..."} or null');
  if ('interval_minutes' in s) {
    const named = prefixed(s, 'schedule');
    onlyFields(named, ['schedule.interval_minutes']);
    const minutes = integer(named, 'schedule.interval_minutes', MIN_SCHEDULE_MINUTES, MAX_SCHEDULE_MINUTES);
    if (minutes === undefined) throw badField('schedule.interval_minutes', 'is required');
    return { interval_minutes: minutes };
  }
  onlyFields(prefixed(s, 'schedule'), ['schedule.cron', 'schedule.timezone']);
  if (typeof s.cron !== 'string') throw badField('schedule.cron', 'must be a cron expression such as "0 2 * * *"');
  if (s.timezone !== undefined && typeof s.timezone !== 'string')
    throw badField('schedule.timezone', 'must be a time zone name such as "Australia/Sydney"');
  const problem = cronProblem(s.cron, s.timezone as string | undefined);
  if (problem) throw badField(/time zone/.test(problem) ? 'schedule.timezone' : 'schedule.cron', problem);
  return { cron: s.cron.trim(), ...(s.timezone ? { timezone: s.timezone as string } : {}) };
}

function prefixed(o: Record<string, unknown>, prefix: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [`${prefix}.${k}`, v]));
}

function restInput(b: Record<string, unknown>, policy: WebhookTargetPolicy, creating: boolean): SourceInput {
  const need = (f: string) => creating || b[f] !== undefined;
  const rest: Partial<OneRosterRestSettings> = {};
  if (need('version')) {
    const version = oneOf(b, 'version', ['1.1', '1.2'] as const);
    if (!version) throw badField('version', 'is required ("1.1" or "1.2")');
    rest.version = version;
  }
  if (need('base_url')) rest.base_url = outboundUrl(b, 'base_url', policy);
  if (need('token_url')) rest.token_url = outboundUrl(b, 'token_url', policy);
  if (need('client_id')) rest.client_id = text(b, 'client_id', { max: 500 });
  if (b.scope !== undefined) rest.scope = text(b, 'scope', { max: 2000 });
  const delta = bool(b, 'delta');
  if (delta !== undefined) rest.delta = delta;
  const hours = integer(b, 'full_sync_interval_hours', 1, 24 * 90);
  if (hours !== undefined) rest.full_sync_interval_hours = hours;
  const clientSecret = need('client_secret') ? text(b, 'client_secret', { max: 2000 }) : undefined;
  return { rest, clientSecret, ...(b.schedule !== undefined ? { schedule: parseSchedule(b.schedule) } : {}) };
}

function publicKeys(value: unknown): string[] {
  if (!Array.isArray(value) || value.length > 20)
    throw badField('public_keys', 'must be a list of at most 20 OpenSSH public keys');
  return value.map((k, i) => {
    const parsed = typeof k === 'string' && k.length <= 16_384 ? sshUtils.parseKey(k) : undefined;
    const key = Array.isArray(parsed) ? parsed[0] : parsed;
    if (!key || key instanceof Error || key.isPrivateKey())
      throw badField(`public_keys[${i}]`, 'must be an OpenSSH public key line (ssh-ed25519 AAAA..., ssh-rsa AAAA...)');
    return (k as string).trim();
  });
}

function sftpInput(b: Record<string, unknown>, creating: boolean): SourceInput {
  const sftp: Partial<SftpSettings> = {};
  let username: string | undefined;
  if (creating || b.username !== undefined) {
    username = text(b, 'username', { max: 64 });
    if (!USERNAME.test(username))
      throw badField('username', 'must be 3-64 lower-case letters, digits, dots, dashes or underscores');
  }
  const password = b.password === undefined ? undefined : text(b, 'password', { min: 12, max: 200 });
  if (b.public_keys !== undefined) sftp.public_keys = publicKeys(b.public_keys);
  const stable = integer(b, 'stable_seconds', 1, 3600);
  if (stable !== undefined) sftp.stable_seconds = stable;
  if (creating && password === undefined && !sftp.public_keys?.length)
    throw badField('password', 'is required unless public_keys lists a key');
  return { sftp, username, password };
}

/** The body of a create: the source's type and its fields, defaults filled in. */
export function parseCreate(
  body: unknown,
  policy: WebhookTargetPolicy,
): { type: RosterSourceType; input: SourceInput } {
  const b = bodyObject(body);
  const type = oneOf(b, 'type', SOURCE_TYPES);
  if (!type) throw badField('type', `is required (${SOURCE_TYPES.join(', ')})`);
  const { type: _type, ...rest } = b;
  onlyFields(rest, FIELDS[type]);
  return { type, input: parseFields(rest, type, policy, true) };
}

/** The body of a PATCH of a source of `type` (its type cannot change). */
export function parsePatch(body: unknown, type: RosterSourceType, policy: WebhookTargetPolicy): SourceInput {
  const b = bodyObject(body);
  if (b.type !== undefined && b.type !== type) throw badField('type', 'cannot be changed: create a new source');
  const { type: _type, ...rest } = b;
  onlyFields(rest, FIELDS[type]);
  return parseFields(rest, type, policy, false);
}

function parseFields(
  b: Record<string, unknown>,
  type: RosterSourceType,
  policy: WebhookTargetPolicy,
  creating: boolean,
): SourceInput {
  const name = text(b, 'name', { max: 200, optional: true });
  const enabled = bool(b, 'enabled');
  const specific =
    type === 'oneroster-rest' ? restInput(b, policy, creating) : type === 'sftp' ? sftpInput(b, creating) : {};
  return { ...specific, ...(name !== undefined ? { name } : {}), ...(enabled !== undefined ? { enabled } : {}) };
}
