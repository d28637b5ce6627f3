import type { DeploymentSettings } from '@edu/persistence';
import {
  mergeQuotas,
  QUOTA_SETTING_NAMES,
  quotaViewSchema,
  storedQuotas,
  toQuotaView,
  type QuotaSettingsInput,
  type QuotaSettingsView,
} from './rate-limit-settings';

interface SettingDefinition {
  /** Key in the stored `DeploymentEntity.settings` object. */
  readonly stored: keyof DeploymentSettings;
  readonly values: readonly string[];
  /** What applies while the setting was never set. */
  readonly default: string;
  readonly description: string;
}

/**
 * Per-deployment settings (design §8) as the identity API and the provisioning file write them:
 * the snake_case wire name, the stored key, the allowed values and who each is for. The OneRoster
 * service reads the stored keys (`apps/oneroster/src/tenancy/tenant-access.service.ts`).
 *
 * Adding a setting: its stored key in `DeploymentSettings` (libs/persistence), one entry here, and
 * one `@Setting(...)` line in `DeploymentSettingsDto`. The operator's rate-limit quotas are
 * numbers, in their own table (rate-limit-settings.ts), and share the `settings` object.
 */
export const DEPLOYMENT_SETTINGS = {
  oneroster_date_format: {
    stored: 'onerosterDateFormat',
    values: ['compact', 'iso8601'],
    default: 'compact',
    description:
      'OneRoster dates and datetimes: `compact` as the service spec shows them (`20240131`, `20240131T235959.123Z`), or `iso8601` ' +
      '(`2024-01-31`, `2024-01-31T23:59:59.123Z`) as the OneRoster 1.1 standard writes them, for stock sync clients such as ' +
      'Microsoft School Data Sync, Google Classroom or Clever-style rostering tools.',
  },
  oneroster_booleans: {
    stored: 'onerosterBooleans',
    values: ['string', 'json'],
    default: 'string',
    description:
      'OneRoster booleans (`enabledUser`, `primary`, demographics flags): `string` (`"true"`, as the OneRoster 1.1 binding prints them) or ' +
      '`json` (`true`) for clients that parse booleans strictly.',
  },
  oneroster_profile: {
    stored: 'onerosterProfile',
    values: ['strict', 'compatibility'],
    default: 'strict',
    description:
      'OneRoster consumer compatibility profile: `strict` applies the service spec (a `limit` above 1000 is a 400); `compatibility` serves a ' +
      '`limit` above 1000 as pages of 1000 with correct `Link` next/last, and prints ISO 8601 dates whatever `oneroster_date_format` says, ' +
      'for stock grade-sync and rostering clients that ask for large pages: Google Classroom (`limit=10000`), Microsoft School Data Sync (`limit=5000`).',
  },
} as const satisfies Record<string, SettingDefinition>;

export type SettingName = keyof typeof DEPLOYMENT_SETTINGS;
export const SETTING_NAMES = Object.keys(DEPLOYMENT_SETTINGS) as SettingName[];

/** Every setting with its effective value: the `settings` object of the deployment read shape. */
export type DeploymentSettingsView = {
  -readonly [K in SettingName]: (typeof DEPLOYMENT_SETTINGS)[K]['values'][number];
} & QuotaSettingsView;

/** Settings named in a write; the ones left out keep their value. */
export type DeploymentSettingsInput = Partial<{
  -readonly [K in SettingName]: (typeof DEPLOYMENT_SETTINGS)[K]['values'][number];
}> &
  QuotaSettingsInput;

const definition = (name: SettingName): SettingDefinition => DEPLOYMENT_SETTINGS[name];

/** The stored settings in wire shape, defaults filled in (a stored value no longer allowed reads as the default). */
export function toSettingsView(stored: DeploymentSettings | null | undefined): DeploymentSettingsView {
  const view: Record<string, string> = {};
  for (const name of SETTING_NAMES) {
    const def = definition(name);
    const value = stored?.[def.stored];
    view[name] = typeof value === 'string' && def.values.includes(value) ? value : def.default;
  }
  return { ...view, ...toQuotaView(stored) } as DeploymentSettingsView;
}

/**
 * The stored settings after a write: settings named in `input` take its values, the others keep
 * theirs (settings are independent switches, so a write never resets one it does not name).
 */
export function mergeSettings(
  stored: DeploymentSettings | null | undefined,
  input: DeploymentSettingsInput | undefined,
): DeploymentSettings {
  const merged: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const def = definition(name);
    const value = input?.[name] ?? stored?.[def.stored];
    if (value !== undefined) merged[def.stored] = value;
  }
  return mergeQuotas({ ...merged, ...storedQuotas(stored) }, input) as DeploymentSettings;
}

/** OpenAPI schema of the read shape's `settings` object, built from the table above. */
export function settingsViewSchema() {
  return {
    type: 'object' as const,
    description:
      'Extension to spec 2.4: every per-deployment setting with its effective value (defaults filled in); the rate-limit quotas only where the operator set one.',
    properties: {
      ...Object.fromEntries(SETTING_NAMES.map((name) => [name, settingSchema(name)])),
      ...Object.fromEntries(QUOTA_SETTING_NAMES.map((name) => [name, quotaViewSchema(name)])),
    },
    required: [...SETTING_NAMES],
  };
}

export function settingSchema(name: SettingName) {
  const def = definition(name);
  return { type: 'string' as const, enum: [...def.values], default: def.default, description: def.description };
}
