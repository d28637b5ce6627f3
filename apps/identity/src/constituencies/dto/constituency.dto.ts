import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsString, Length, Matches } from 'class-validator';
import { IsUniqueList, Optional } from '../../common/validation/validators';

export const CONSTITUENCY_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** POST /tenants/:id/constituencies. The id is a role-like key the tenant chooses. */
export class CreateConstituencyDto {
  @ApiProperty({ example: 'staff', description: 'Role-like key, unique within the tenant' })
  @IsString()
  @Matches(CONSTITUENCY_ID, { message: 'must be a key of letters, digits, ".", "_" or "-" (at most 64)' })
  id: string;

  @ApiProperty({ example: 'Staff' }) @IsString() @Length(1, 200) name: string;
  @ApiProperty() @IsBoolean() enable_self_service_provisioning: boolean;

  @ApiProperty({
    type: [String],
    example: ['google'],
    description: 'Core provider names or uuids of the tenant\u2019s providers',
  })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsUniqueList()
  allowed_identity_providers: string[];
}

export class UpdateConstituencyDto {
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional() @Optional() @IsBoolean() enable_self_service_provisioning?: boolean;

  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsUniqueList()
  allowed_identity_providers?: string[];
}
