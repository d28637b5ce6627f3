import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, Max, Min, ValidateIf } from 'class-validator';
import { Optional } from '../../common/validation/validators';
import {
  DEPLOYMENT_SETTINGS,
  settingSchema,
  type DeploymentSettingsView,
  type SettingName,
} from '../deployment-settings';
import { QUOTA_MAX, QUOTA_MIN, quotaSettingSchema, type QuotaSettingName } from '../rate-limit-settings';

/** One optional setting of the table in deployment-settings.ts: its documentation and allowed values. */
function Setting(name: SettingName): PropertyDecorator {
  const values = DEPLOYMENT_SETTINGS[name].values;
  return applyDecorators(
    ApiPropertyOptional(settingSchema(name)),
    Optional(),
    IsIn(values, { message: `must be one of: ${values.join(', ')}` }),
  );
}

/** One of the operator's rate-limit quotas: an integer within bounds, or null for the service default. */
function Quota(name: QuotaSettingName): PropertyDecorator {
  const bounds = `must be an integer from ${QUOTA_MIN} to ${QUOTA_MAX} (requests per window), or null for the default`;
  return applyDecorators(
    ApiPropertyOptional(quotaSettingSchema(name)),
    ValidateIf((_o, value) => value !== undefined && value !== null),
    IsInt({ message: bounds }),
    Min(QUOTA_MIN, { message: bounds }),
    Max(QUOTA_MAX, { message: bounds }),
  );
}

/**
 * `settings` of a deployment write: the settings to change, each optional; unknown keys are
 * refused. One line per entry of DEPLOYMENT_SETTINGS and of QUOTA_SETTINGS.
 */
export class DeploymentSettingsDto {
  @Setting('oneroster_date_format') oneroster_date_format?: DeploymentSettingsView['oneroster_date_format'];
  @Setting('oneroster_booleans') oneroster_booleans?: DeploymentSettingsView['oneroster_booleans'];
  @Setting('oneroster_profile') oneroster_profile?: DeploymentSettingsView['oneroster_profile'];
  @Quota('rate_limit_read') rate_limit_read?: number | null;
  @Quota('rate_limit_write') rate_limit_write?: number | null;
  @Quota('rate_limit_gradebook_write') rate_limit_gradebook_write?: number | null;
}
