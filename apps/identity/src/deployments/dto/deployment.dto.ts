import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { IsUniqueList, Optional } from '../../common/validation/validators';
import { DeploymentSettingsDto } from './deployment-settings.dto';

const SETTINGS_DOC = {
  type: DeploymentSettingsDto,
  description:
    'Per-deployment settings to set (extension to spec 2.4); settings left out keep their value (defaults on a new deployment)',
};

/** A deployment's scope list: at most 50 distinct scope URIs. */
function ScopeList(): PropertyDecorator {
  return applyDecorators(
    IsArray(),
    ArrayMaxSize(50),
    IsString({ each: true }),
    MaxLength(512, { each: true }),
    IsUniqueList(),
  );
}

/** The optional per-deployment settings, checked as `DeploymentSettingsDto`. */
function SettingsField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional(SETTINGS_DOC),
    Optional(),
    IsObject(),
    ValidateNested(),
    Type(() => DeploymentSettingsDto),
  );
}

/** POST /tenants/:tenant_id/apps: deploys an app at the tenant of the path. */
export class CreateDeploymentDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') app_id: string;

  @ApiProperty({ type: [String], description: 'Scope URIs granted to the app at this tenant' })
  @ScopeList()
  scope: string[];

  @SettingsField()
  settings?: DeploymentSettingsDto;
}

/** PATCH /tenants/:tenant_id/apps/:app_id: `scope` is replaced whole; `settings` only as named. */
export class UpdateDeploymentDto {
  @ApiPropertyOptional({ type: [String], description: 'The new scope list (replaces the old one)' })
  @Optional()
  @ScopeList()
  scope?: string[];

  @SettingsField()
  settings?: DeploymentSettingsDto;
}
