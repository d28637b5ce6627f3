import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { SAML_USER_ATTRIBUTES } from '@edu/sign-in';
import {
  EachObject,
  IsHttpUrl,
  IsHttpUrlList,
  IsSamlMetadataXml,
  IsUniqueList,
  PresentOnlyWhen,
  Optional,
} from '../../common/validation/validators';

export const APP_AUTH_TYPES = ['oauth2', 'saml'] as const;
/** A user-attribute reference such as `user.email` (spec 2.1). */
export const USER_ATTRIBUTE_REF = /^user\.[A-Za-z_][A-Za-z0-9_.]{0,99}$/;
/** The references a SAML app's claims may use: the attributes the identity provider can send. */
export const SAML_USER_ATTRIBUTE_REFS = SAML_USER_ATTRIBUTES.map((a) => `user.${a}`);

export class AppOAuth2Dto {
  @ApiProperty({ type: [String], example: ['https://app.example/callback'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsHttpUrlList()
  @IsUniqueList()
  redirect_uris: string[];
}

export class SamlClaimDto {
  @ApiProperty({ example: 'emailaddress' })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({
    example: 'user.email',
    enum: SAML_USER_ATTRIBUTE_REFS,
    description:
      'The person’s attribute sent as this claim, `user.<attribute>` (unknown attributes are refused here, never at sign-in)',
  })
  @IsString()
  @Matches(USER_ATTRIBUTE_REF, { message: 'must be a user-attribute reference such as user.email' })
  @IsIn(SAML_USER_ATTRIBUTE_REFS, { message: `must be a known user attribute: ${SAML_USER_ATTRIBUTE_REFS.join(', ')}` })
  value: string;
}

export class SamlClaimGroupDto {
  @ApiProperty({ example: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims' })
  @IsString()
  @Length(1, 500)
  namespace: string;

  @ApiProperty({ type: [SamlClaimDto] })
  @IsArray()
  @ArrayMaxSize(100)
  @EachObject()
  @ValidateNested({ each: true })
  @Type(() => SamlClaimDto)
  claims: SamlClaimDto[];
}

export class AppSamlDto {
  @ApiProperty() @IsHttpUrl() metadata_url: string;

  @ApiProperty({ description: 'SAML metadata XML document (well-formed, root EntityDescriptor or EntitiesDescriptor)' })
  @IsSamlMetadataXml()
  metadata_xml: string;

  @ApiProperty() @IsString() @Length(1, 1024) entity_id: string;
  @ApiProperty() @IsHttpUrl() reply_url: string;
  @ApiProperty() @IsHttpUrl() sign_on_url: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @Length(0, 1024)
  relay_state?: string | null;

  @ApiProperty() @IsHttpUrl() sign_out_url: string;

  @ApiProperty({ type: [SamlClaimGroupDto] })
  @IsArray()
  @ArrayMaxSize(20)
  @EachObject()
  @ValidateNested({ each: true })
  @Type(() => SamlClaimGroupDto)
  claims: SamlClaimGroupDto[];
}

/** POST /apps. The owner comes from the token (tenant or developer), never from the body. */
export class CreateAppDto {
  @ApiProperty({ example: 'Timetable Sync' })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({ enum: APP_AUTH_TYPES })
  @IsIn(APP_AUTH_TYPES)
  auth_type: 'oauth2' | 'saml';

  @ApiPropertyOptional({ type: AppOAuth2Dto, description: 'Required when auth_type is oauth2, refused otherwise' })
  @PresentOnlyWhen('auth_type', 'oauth2', { object: true })
  @ValidateNested()
  @Type(() => AppOAuth2Dto)
  oauth2?: AppOAuth2Dto;

  @ApiPropertyOptional({ type: AppSamlDto, description: 'Required when auth_type is saml, refused otherwise' })
  @PresentOnlyWhen('auth_type', 'saml', { object: true })
  @ValidateNested()
  @Type(() => AppSamlDto)
  saml?: AppSamlDto;
}

export const APP_OWNER_TYPES = ['tenant', 'developer'] as const;

/** An app's owner, named in a body only by the operator (and the provisioning file). */
export class AppOwnerDto {
  @ApiProperty({ enum: APP_OWNER_TYPES }) @IsIn(APP_OWNER_TYPES) type: 'tenant' | 'developer';
  @ApiProperty({ format: 'uuid' }) @IsUUID('all') id: string;
}

/**
 * The body of POST /apps. A tenant or developer token creates an app it owns and names no owner;
 * the operator (platform.admin) names the owner: a tenant or a developer.
 */
export class CreateAppRequestDto extends CreateAppDto {
  @ApiPropertyOptional({
    type: AppOwnerDto,
    description: 'Required with platform.admin, refused otherwise (the owner is the token\u2019s tenant or developer)',
  })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => AppOwnerDto)
  owner?: AppOwnerDto;
}

/** PATCH /apps/:id. Nested objects are replaced whole; the merged app must satisfy CreateAppDto. */
export class UpdateAppDto {
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional({ enum: APP_AUTH_TYPES }) @Optional() @IsIn(APP_AUTH_TYPES) auth_type?: 'oauth2' | 'saml';
  @ApiPropertyOptional({ type: AppOAuth2Dto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => AppOAuth2Dto)
  oauth2?: AppOAuth2Dto;
  @ApiPropertyOptional({ type: AppSamlDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => AppSamlDto)
  saml?: AppSamlDto;
}
