import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, IsUUID, MaxLength } from 'class-validator';
import { IsUniqueList } from '../../common/validation/validators';

/** POST /tenants/:tenant_id/apps: deploys an app at the token's tenant. */
export class CreateDeploymentDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') app_id: string;

  @ApiProperty({ type: [String], description: 'Scope URIs granted to the app at this tenant' })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(512, { each: true })
  @IsUniqueList()
  scope: string[];
}

export class UpdateDeploymentDto {
  @ApiProperty({ type: [String] })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(512, { each: true })
  @IsUniqueList()
  scope: string[];
}
