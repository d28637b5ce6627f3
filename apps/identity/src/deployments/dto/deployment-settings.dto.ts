import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { Optional } from '../../common/validation/validators';
import { DEPLOYMENT_SETTINGS, settingSchema, type DeploymentSettingsView, type SettingName } from '../deployment-settings';

/** One optional setting of the table in deployment-settings.ts: its documentation and allowed values. */
function Setting(name: SettingName): PropertyDecorator {
  const values = DEPLOYMENT_SETTINGS[name].values;
  return applyDecorators(ApiPropertyOptional(settingSchema(name)), Optional(), IsIn(values, { message: `must be one of: ${values.join(', ')}` }));
}

/**
 * `settings` of a deployment write: the settings to change, each optional; unknown keys are
 * refused. One line per entry of DEPLOYMENT_SETTINGS.
 */
export class DeploymentSettingsDto {
  @Setting('oneroster_date_format') oneroster_date_format?: DeploymentSettingsView['oneroster_date_format'];
  @Setting('oneroster_booleans') oneroster_booleans?: DeploymentSettingsView['oneroster_booleans'];
  @Setting('oneroster_profile') oneroster_profile?: DeploymentSettingsView['oneroster_profile'];
}
