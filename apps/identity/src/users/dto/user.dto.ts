import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsEmail, IsOptional, IsString, IsUUID, Length, MaxLength, ValidateNested } from 'class-validator';
import { EachObject, IsHttpUrl, IsUniqueList, Optional } from '../../common/validation/validators';

export class IdpIdentifierDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Assigned by the server when absent' })
  @IsOptional()
  @IsUUID('all')
  id?: string;

  @ApiProperty({ example: 'google', description: 'Core provider name or the uuid of one of the tenant\u2019s providers' })
  @IsString()
  @Length(1, 64)
  idp_id: string;
}

/** POST /users: creates the user and links it to the token's tenant. */
export class CreateUserDto {
  @ApiProperty({ example: 'jo.citizen@school.example' }) @IsEmail() @MaxLength(254) email: string;
  @ApiProperty({ example: 'Jo Citizen' }) @IsString() @Length(1, 200) name: string;
  @ApiPropertyOptional({ example: 'Jo', description: 'Defaults to the name' }) @IsOptional() @IsString() @Length(1, 100) nickname?: string;
  @ApiProperty({ example: 'https://cdn.school.example/jo.png' }) @IsHttpUrl() picture: string;

  @ApiPropertyOptional({ type: [IdpIdentifierDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @EachObject()
  @ValidateNested({ each: true })
  @Type(() => IdpIdentifierDto)
  idp_identifiers?: IdpIdentifierDto[];
}

/**
 * PATCH /users/:email. Profile fields are the person's, shared by every tenant they belong to;
 * `idp_identifiers` replaces only the identifiers this tenant can see.
 */
export class UpdateUserDto {
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 100) nickname?: string;
  @ApiPropertyOptional() @Optional() @IsHttpUrl() picture?: string;

  @ApiPropertyOptional({ type: [IdpIdentifierDto] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @EachObject()
  @ValidateNested({ each: true })
  @Type(() => IdpIdentifierDto)
  idp_identifiers?: IdpIdentifierDto[];
}

/** POST /tenants/:id/users: links an existing user to the tenant. */
export class CreateTenantUserDto {
  @ApiProperty() @IsEmail() @MaxLength(254) user_email: string;

  @ApiProperty({ type: [String], example: ['staff'] })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsUniqueList()
  constituencies: string[];
}

export class UpdateTenantUserDto {
  @ApiProperty({ type: [String] })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsUniqueList()
  constituencies: string[];
}
