import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { EachObject, IsHttpUrl, IsUniqueList, Optional } from '../../common/validation/validators';

export class IdpIdentifierDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Assigned by the server when absent' })
  @IsOptional()
  @IsUUID('all')
  id?: string;

  @ApiProperty({
    example: 'google',
    description: 'Core provider name or the uuid of one of the tenant\u2019s providers',
  })
  @IsString()
  @Length(1, 64)
  idp_id: string;
}

/** A person's identifiers at upstream providers (at most 20), each checked as an `IdpIdentifierDto`. */
function IdpIdentifierList(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [IdpIdentifierDto] }),
    IsArray(),
    ArrayMaxSize(20),
    EachObject(),
    ValidateNested({ each: true }),
    Type(() => IdpIdentifierDto),
  );
}

/**
 * POST /users: adds the person to the token's tenant with the tenant's own profile of them. The
 * person may be new or known to other tenants; the answer is the same either way.
 */
export class CreateUserDto {
  @ApiProperty({ example: 'jo.citizen@school.example' }) @IsEmail() @MaxLength(254) email: string;
  @ApiProperty({ example: 'Jo Citizen' }) @IsString() @Length(1, 200) name: string;
  @ApiPropertyOptional({ example: 'Jo', description: 'Defaults to the name' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  nickname?: string;
  @ApiProperty({ example: 'https://cdn.school.example/jo.png' }) @IsHttpUrl() picture: string;

  @IsOptional()
  @IdpIdentifierList()
  idp_identifiers?: IdpIdentifierDto[];
}

/**
 * PATCH /users/:email. Changes this tenant's profile of the person and replaces this tenant's
 * identifiers; other tenants' records of the same person are never touched.
 */
export class UpdateUserDto {
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 100) nickname?: string;
  @ApiPropertyOptional() @Optional() @IsHttpUrl() picture?: string;

  @Optional()
  @IdpIdentifierList()
  idp_identifiers?: IdpIdentifierDto[];
}

/** The `user` of a tenant-user record (spec 2.6) as the tenant gives it: its own profile of the person. */
export class TenantUserProfileDto {
  @ApiProperty({ example: 'Jo Citizen' }) @IsString() @Length(1, 200) name: string;
  @ApiPropertyOptional({ example: 'Jo', description: 'Defaults to the name' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  nickname?: string;
  @ApiProperty({ example: 'https://cdn.school.example/jo.png' }) @IsHttpUrl() picture: string;
}

/** The link part of a tenant-user record: which person, in which of the tenant's constituencies. */
export class TenantUserLinkDto {
  @ApiProperty() @IsEmail() @MaxLength(254) user_email: string;

  @ApiProperty({ type: [String], example: ['staff'] })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsUniqueList()
  constituencies: string[];
}

/**
 * POST /tenants/:id/users: adds the person to the tenant with constituencies and the tenant's own
 * profile (`user`). A tenant sees only the profile it gave, so `user` is required whether or not
 * other tenants know the person.
 */
export class CreateTenantUserDto extends TenantUserLinkDto {
  @ApiProperty({ type: TenantUserProfileDto })
  @IsObject()
  @ValidateNested()
  @Type(() => TenantUserProfileDto)
  user: TenantUserProfileDto;
}

export class UpdateTenantUserDto {
  @ApiProperty({ type: [String] })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsUniqueList()
  constituencies: string[];
}
