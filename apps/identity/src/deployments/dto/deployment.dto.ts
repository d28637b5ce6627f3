import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { IsUniqueList, Optional } from '../../common/validation/validators';
import { DeploymentSettingsDto } from './deployment-settings.dto';

const SETTINGS_DOC = { type: DeploymentSettingsDto, description: 'Per-deployment settings to set (extension to spec 2.4); settings left out keep their value (defaults on a new deployment)' };

/** POST /tenants/:tenant_id/apps: deploys an app at the tenant of the path. */
export class CreateDeploymentDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') app_id: string;

  @ApiProperty({ type: [String], description: 'Scope URIs granted to the app at this tenant' })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(512, { each: true })
  @IsUniqueList()
  scope: string[];

  @ApiPropertyOptional(SETTINGS_DOC)
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => DeploymentSettingsDto)
  settings?: DeploymentSettingsDto;
}

/** PATCH /tenants/:tenant_id/apps/:app_id: `scope` is replaced whole; `settings` only as named. */
export class UpdateDeploymentDto {
  @ApiPropertyOptional({ type: [String], description: 'The new scope list (replaces the old one)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(512, { each: true })
  @IsUniqueList()
  scope?: string[];

  @ApiPropertyOptional(SETTINGS_DOC)
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => DeploymentSettingsDto)
  settings?: DeploymentSettingsDto;
}
