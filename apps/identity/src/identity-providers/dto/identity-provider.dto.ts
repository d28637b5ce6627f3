import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { BUTTON_GRAPHIC_MAX_BYTES } from '@edu/content-checks';
import { IsHttpUrl, IsImage, PresentOnlyWhen, Optional } from '../../common/validation/validators';

export const IDP_TYPES = ['lti1.3', 'oauth2'] as const;

export class IdpLtiDto {
  @ApiProperty() @IsString() @Length(1, 255) client_id: string;
  @ApiProperty() @IsHttpUrl() oidc_authentication_url: string;
  @ApiProperty() @IsHttpUrl() oauth_access_token_url: string;
  @ApiProperty() @IsHttpUrl() jwks_url: string;
  @ApiProperty() @IsHttpUrl() issuer: string;
  @ApiProperty() @IsBoolean() validate_lti_tokens_at_oidc_login: boolean;
  @ApiProperty() @IsString() @Length(1, 255) deployment_id: string;
}

export class IdpOAuth2Dto {
  @ApiProperty() @IsString() @Length(1, 255) client_id: string;
  @ApiProperty() @IsHttpUrl() authorization_url: string;
  @ApiProperty() @IsHttpUrl() token_url: string;

  @ApiProperty({ type: [String], example: ['openid', 'email', 'profile'] })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Matches(/^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/, {
    each: true,
    message: 'each scope must be a non-empty OAuth scope token (no spaces or quotes)',
  })
  scope: string[];

  @ApiProperty() @IsHttpUrl() oidc_discovery: string;
  @ApiProperty() @IsHttpUrl() jwks_url: string;

  @ApiPropertyOptional({
    writeOnly: true,
    description:
      'The client secret registered at the provider (beyond the spec). Write-only: stored encrypted, never returned. Left out, the stored secret is kept; no secret at all makes sign-in a public client (PKCE only).',
  })
  @Optional()
  @IsString()
  @Length(1, 1000)
  client_secret?: string;
}

const DISPLAY_NAME_DOC = {
  description:
    'What the sign-in button says: "Sign in with <display_name>" (1-60 characters, one line). Unset: the school\u2019s name, or the host of its authorization_url when the school has several unnamed providers. PATCH with null removes it.',
  maxLength: 60,
};
const ONE_LINE = /^[^\p{Cc}]+$/u;

/** POST /identity-providers: a provider of the token's tenant. */
export class CreateIdentityProviderDto {
  @ApiProperty({ description: 'SVG document, at most 64 KiB' })
  @IsImage(BUTTON_GRAPHIC_MAX_BYTES, true)
  button_graphic: string;

  @ApiProperty() @IsBoolean() provision_just_in_time: boolean;

  @ApiPropertyOptional(DISPLAY_NAME_DOC)
  @Optional()
  @IsString()
  @Length(1, 60)
  @Matches(ONE_LINE)
  display_name?: string;

  @ApiProperty({ enum: IDP_TYPES }) @IsIn(IDP_TYPES) type: 'lti1.3' | 'oauth2';

  @ApiPropertyOptional({ type: IdpLtiDto, description: 'Required when type is lti1.3, refused otherwise' })
  @PresentOnlyWhen('type', 'lti1.3', { object: true })
  @ValidateNested()
  @Type(() => IdpLtiDto)
  lti?: IdpLtiDto;

  @ApiPropertyOptional({ type: IdpOAuth2Dto, description: 'Required when type is oauth2, refused otherwise' })
  @PresentOnlyWhen('type', 'oauth2', { object: true })
  @ValidateNested()
  @Type(() => IdpOAuth2Dto)
  oauth2?: IdpOAuth2Dto;
}

/** PATCH /identity-providers/:id; the merged provider must satisfy CreateIdentityProviderDto. */
export class UpdateIdentityProviderDto {
  @ApiPropertyOptional() @Optional() @IsImage(BUTTON_GRAPHIC_MAX_BYTES, true) button_graphic?: string;
  @ApiPropertyOptional() @Optional() @IsBoolean() provision_just_in_time?: boolean;
  @ApiPropertyOptional({ ...DISPLAY_NAME_DOC, nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, 60)
  @Matches(ONE_LINE)
  display_name?: string | null;
  @ApiPropertyOptional({ enum: IDP_TYPES }) @Optional() @IsIn(IDP_TYPES) type?: 'lti1.3' | 'oauth2';
  @ApiPropertyOptional({ type: IdpLtiDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => IdpLtiDto)
  lti?: IdpLtiDto;
  @ApiPropertyOptional({ type: IdpOAuth2Dto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => IdpOAuth2Dto)
  oauth2?: IdpOAuth2Dto;
}
