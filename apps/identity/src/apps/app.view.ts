import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AppEntity, AppOAuth2Settings, AppSamlSettings } from '@edu/persistence';
import { AppOAuth2Dto, AppSamlDto } from './dto/app.dto';

export class OwnerView {
  @ApiProperty({ enum: ['tenant', 'developer'] }) type: 'tenant' | 'developer';
  @ApiProperty({ format: 'uuid' }) id: string;
}

/** Spec 2.1. */
export class AppView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: OwnerView }) owner: OwnerView;
  @ApiProperty({ enum: ['oauth2', 'saml'] }) auth_type: 'oauth2' | 'saml';
  @ApiPropertyOptional({ type: AppOAuth2Dto, description: 'Present when auth_type is oauth2' })
  oauth2?: AppOAuth2Settings;
  @ApiPropertyOptional({ type: AppSamlDto, description: 'Present when auth_type is saml' }) saml?: AppSamlSettings;
}

/** Client credentials, shown once: at creation and on rotation. */
export class AppCredentialsView {
  @ApiProperty() client_id: string;
  @ApiProperty({ description: 'Shown only in this response; stored hashed' }) client_secret: string;
}

export class CreatedAppView extends AppView {
  @ApiProperty() client_id: string;
  @ApiProperty({ description: 'Shown only in this response; stored hashed' }) client_secret: string;
}

export function toAppView(app: AppEntity): AppView {
  const view: AppView = {
    id: app.id,
    name: app.name,
    owner: { type: app.ownerType, id: app.ownerId },
    auth_type: app.authType,
  };
  if (app.authType === 'oauth2') view.oauth2 = { redirect_uris: [...(app.oauth2?.redirect_uris ?? [])] };
  if (app.authType === 'saml' && app.saml) view.saml = toSamlView(app.saml);
  return view;
}

/** A clean copy of SAML settings (stored row or validated body): known fields only, relay_state null when absent. */
function toSamlView(s: Omit<AppSamlSettings, 'relay_state'> & { relay_state?: string | null }): AppSamlSettings {
  return {
    metadata_url: s.metadata_url,
    metadata_xml: s.metadata_xml,
    entity_id: s.entity_id,
    reply_url: s.reply_url,
    sign_on_url: s.sign_on_url,
    relay_state: s.relay_state ?? null,
    sign_out_url: s.sign_out_url,
    claims: s.claims.map((g) => ({
      namespace: g.namespace,
      claims: g.claims.map((c) => ({ name: c.name, value: c.value })),
    })),
  };
}

/** The writable part of an app, in request-body shape (for merging PATCHes and provisioning). */
export function appInput(app: AppEntity): Record<string, unknown> {
  const v = toAppView(app);
  return {
    name: v.name,
    auth_type: v.auth_type,
    ...(v.oauth2 ? { oauth2: v.oauth2 } : {}),
    ...(v.saml ? { saml: v.saml } : {}),
  };
}

/** Settings columns from a validated body: only the object matching auth_type is kept. */
export function appSettings(dto: { auth_type: 'oauth2' | 'saml'; oauth2?: AppOAuth2Dto; saml?: AppSamlDto }): {
  oauth2: AppOAuth2Settings | null;
  saml: AppSamlSettings | null;
} {
  if (dto.auth_type === 'oauth2')
    return { oauth2: { redirect_uris: [...(dto.oauth2?.redirect_uris ?? [])] }, saml: null };
  return { oauth2: null, saml: toSamlView(dto.saml as AppSamlDto) };
}
