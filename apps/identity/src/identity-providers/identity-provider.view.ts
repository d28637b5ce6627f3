import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  CoreIdentityProviderEntity,
  IdentityProviderEntity,
  IdentityProviderLtiSettings,
  IdentityProviderOAuth2Settings,
} from '@edu/persistence';
import type { KeyEncryption } from '@edu/signing';
import { IdpLtiDto, IdpOAuth2Dto, type CreateIdentityProviderDto } from './dto/identity-provider.dto';

/** Service-managed provider (spec 2.2): only a name and a button. */
export class CoreIdentityProviderView {
  @ApiProperty({ example: 'google', description: 'Provider name' }) id: string;
  @ApiProperty({ description: 'SVG document' }) button_graphic: string;
}

/** Tenant-specific provider (spec 2.2). */
export class TenantIdentityProviderView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'SVG document' }) button_graphic: string;
  @ApiProperty() provision_just_in_time: boolean;
  @ApiPropertyOptional({
    description: 'What the sign-in button says ("Sign in with …"); absent: the school\u2019s name',
  })
  display_name?: string;
  @ApiProperty({ format: 'uuid' }) tenant: string;
  @ApiProperty({ enum: ['lti1.3', 'oauth2'] }) type: 'lti1.3' | 'oauth2';
  @ApiPropertyOptional({ type: IdpLtiDto, description: 'Present when type is lti1.3' })
  lti?: IdentityProviderLtiSettings;
  @ApiPropertyOptional({ type: IdpOAuth2Dto, description: 'Present when type is oauth2' })
  oauth2?: IdentityProviderOAuth2Settings;
}

export type IdentityProviderView = CoreIdentityProviderView | TenantIdentityProviderView;

export function toCoreIdentityProviderView(p: CoreIdentityProviderEntity): CoreIdentityProviderView {
  return { id: p.id, button_graphic: p.buttonGraphic };
}

export function toTenantIdentityProviderView(p: IdentityProviderEntity): TenantIdentityProviderView {
  const view: TenantIdentityProviderView = {
    id: p.id,
    button_graphic: p.buttonGraphic,
    provision_just_in_time: p.provisionJustInTime,
    tenant: p.tenantId,
    type: p.type,
  };
  if (p.displayName) view.display_name = p.displayName;
  if (p.type === 'lti1.3' && p.lti) view.lti = ltiSettings(p.lti);
  if (p.type === 'oauth2' && p.oauth2) view.oauth2 = oauth2Settings(p.oauth2);
  return view;
}

function ltiSettings(l: IdentityProviderLtiSettings): IdentityProviderLtiSettings {
  return {
    client_id: l.client_id,
    oidc_authentication_url: l.oidc_authentication_url,
    oauth_access_token_url: l.oauth_access_token_url,
    jwks_url: l.jwks_url,
    issuer: l.issuer,
    validate_lti_tokens_at_oidc_login: l.validate_lti_tokens_at_oidc_login,
    deployment_id: l.deployment_id,
  };
}

function oauth2Settings(o: IdentityProviderOAuth2Settings): IdentityProviderOAuth2Settings {
  return {
    client_id: o.client_id,
    authorization_url: o.authorization_url,
    token_url: o.token_url,
    scope: [...o.scope],
    oidc_discovery: o.oidc_discovery,
    jwks_url: o.jwks_url,
  };
}

/** Request-body shape of a stored provider (for PATCH merging and provisioning). */
export function identityProviderInput(p: IdentityProviderEntity): Record<string, unknown> {
  const { id: _id, tenant: _tenant, ...rest } = toTenantIdentityProviderView(p);
  return rest;
}

/**
 * The sealed client secret to store: a new one when the body brings it, else the stored one; none
 * once the provider is not `oauth2`. Sealed like signing keys (KEY_ENCRYPTION_KEY), never returned.
 */
export function clientSecretColumn(
  dto: CreateIdentityProviderDto,
  stored: string | null,
  kek: KeyEncryption,
): string | null {
  if (dto.type !== 'oauth2') return null;
  const given = dto.oauth2?.client_secret;
  return given ? kek.encrypt(given) : stored;
}

/** Columns from a validated body: only the settings object matching `type` is kept (never the secret, see clientSecretColumn). */
export function identityProviderColumns(
  dto: CreateIdentityProviderDto,
): Pick<IdentityProviderEntity, 'buttonGraphic' | 'displayName' | 'provisionJustInTime' | 'type' | 'lti' | 'oauth2'> {
  return {
    buttonGraphic: dto.button_graphic,
    displayName: dto.display_name ?? null,
    provisionJustInTime: dto.provision_just_in_time,
    type: dto.type,
    lti: dto.type === 'lti1.3' && dto.lti ? ltiSettings(dto.lti) : null,
    oauth2: dto.type === 'oauth2' && dto.oauth2 ? oauth2Settings(dto.oauth2) : null,
  };
}
