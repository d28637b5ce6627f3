import type { DeploymentSettings } from '@edu/persistence';

interface QuotaSettingDefinition {
  /** Key in the stored `DeploymentEntity.settings` object. */
  readonly stored: keyof DeploymentSettings;
  readonly description: string;
}

/** Bounds of an operator's quota: requests per rate-limit window (RATE_LIMIT_WINDOW_SECONDS, 60 by default). */
export const QUOTA_MIN = 1;
export const QUOTA_MAX = 1_000_000;

/**
 * The operator's per-deployment rate-limit quotas: each replaces the default client
 * budget of one route group for this deployment's tokens, in every service that enforces that
 * group (oneroster and alerts read them from the replicated settings, identity from its own).
 * Never set (or set to `null`) means the service's configured default, and the read shape leaves
 * the quota out. Only the operator may set them.
 */
export const QUOTA_SETTINGS = {
  rate_limit_read: {
    stored: 'rateLimitRead',
    description:
      'Reads (GET) per rate-limit window by this deployment\u2019s tokens, instead of the service default `RATE_LIMIT_READ_PER_CLIENT`; null = the default. Operator only.',
  },
  rate_limit_write: {
    stored: 'rateLimitWrite',
    description:
      'Writes other than grades (webhook registrations, identity records) per window, instead of `RATE_LIMIT_WRITE_PER_CLIENT`; null = the default. Operator only.',
  },
  rate_limit_gradebook_write: {
    stored: 'rateLimitGradebookWrite',
    description:
      'OneRoster gradebook PUT, DELETE and POST per window, instead of `RATE_LIMIT_GRADEBOOK_WRITE_PER_CLIENT`; null = the default. Operator only.',
  },
} as const satisfies Record<string, QuotaSettingDefinition>;

export type QuotaSettingName = keyof typeof QUOTA_SETTINGS;
export const QUOTA_SETTING_NAMES = Object.keys(QUOTA_SETTINGS) as QuotaSettingName[];

/** Read shape: the quotas the operator set (a quota left out is the service default). */
export type QuotaSettingsView = { -readonly [K in QuotaSettingName]?: number };
/** A write: a number sets the quota, null returns to the default, absent keeps it. */
export type QuotaSettingsInput = { -readonly [K in QuotaSettingName]?: number | null };

const isQuota = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= QUOTA_MIN && v <= QUOTA_MAX;

export function toQuotaView(stored: DeploymentSettings | null | undefined): QuotaSettingsView {
  const view: Record<string, number> = {};
  for (const name of QUOTA_SETTING_NAMES) {
    const value = stored?.[QUOTA_SETTINGS[name].stored];
    if (isQuota(value)) view[name] = value;
  }
  return view as QuotaSettingsView;
}

/** The valid quotas of the stored settings, under their stored keys. */
export function storedQuotas(stored: DeploymentSettings | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of QUOTA_SETTING_NAMES) {
    const value = stored?.[QUOTA_SETTINGS[name].stored];
    if (isQuota(value)) out[QUOTA_SETTINGS[name].stored] = value;
  }
  return out;
}

/** Applies a write's quotas to the stored settings (returns a new object). */
export function mergeQuotas(
  stored: Record<string, unknown>,
  input: QuotaSettingsInput | undefined,
): Record<string, unknown> {
  const merged = { ...stored };
  for (const name of QUOTA_SETTING_NAMES) {
    const value = input?.[name];
    if (value === undefined) continue;
    if (value === null) delete merged[QUOTA_SETTINGS[name].stored];
    else merged[QUOTA_SETTINGS[name].stored] = value;
  }
  return merged;
}

/** The quota settings a write names (only the operator may name them). */
export function namedQuotaSettings(input: object | undefined): QuotaSettingName[] {
  return QUOTA_SETTING_NAMES.filter(
    (name) => input !== undefined && (input as Record<string, unknown>)[name] !== undefined,
  );
}

/** In a write: an integer, or null to return to the default. */
export function quotaSettingSchema(name: QuotaSettingName) {
  return {
    type: 'integer' as const,
    nullable: true,
    minimum: QUOTA_MIN,
    maximum: QUOTA_MAX,
    description: QUOTA_SETTINGS[name].description,
  };
}

/** In the read shape: present only when the operator set it. */
export function quotaViewSchema(name: QuotaSettingName) {
  return {
    type: 'integer' as const,
    minimum: QUOTA_MIN,
    maximum: QUOTA_MAX,
    description: `${QUOTA_SETTINGS[name].description} Left out while the default applies.`,
  };
}
