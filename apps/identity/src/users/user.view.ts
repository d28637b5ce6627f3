import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ProviderRefs } from '../directory/provider-refs';
import type { LinkedUser } from '../directory/user.repository';
import { NOTHING_WITHHELD } from '@edu/sharing';

export class IdpIdentifierView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Identity provider id' }) idp_id: string;
}

const WITHHELD_BY_SHARING = 'absent when the school\u2019s data sharing with the calling app withholds';

export class UserSummaryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiPropertyOptional({ description: `${WITHHELD_BY_SHARING} contact` }) email?: string;
  @ApiProperty() name: string;
  @ApiPropertyOptional({ description: `${WITHHELD_BY_SHARING} preferred_names` }) nickname?: string;
  @ApiProperty({ description: 'URL' }) picture: string;
}

/** Spec 2.7. */
export class UserView extends UserSummaryView {
  @ApiPropertyOptional({ type: [IdpIdentifierView], description: `${WITHHELD_BY_SHARING} identifiers` })
  idp_identifiers?: IdpIdentifierView[];
}

/** Spec 2.6. */
export class TenantUserView {
  @ApiPropertyOptional({ description: `${WITHHELD_BY_SHARING} contact` }) user_email?: string;
  @ApiProperty({ format: 'uuid' }) tenant_id: string;
  @ApiProperty({ type: [String] }) constituencies: string[];
  @ApiProperty({ type: UserSummaryView }) user: UserSummaryView;
}

/** The person's id and address with this tenant's own profile of them, less what a sharing withholds. */
export function toUserSummaryView(link: LinkedUser, withheld = NOTHING_WITHHELD): UserSummaryView {
  return {
    id: link.user.id,
    ...(withheld.email ? {} : { email: link.user.email }),
    name: link.name,
    ...(withheld.nickname ? {} : { nickname: link.nickname }),
    picture: link.picture,
  };
}

/**
 * This tenant's identifiers of the person. Writes accept only providers the tenant can see; the
 * filter is a second guard, so a record can never show an identifier at another tenant's provider.
 */
export function toUserView(link: LinkedUser, refs: ProviderRefs, withheld = NOTHING_WITHHELD): UserView {
  const summary = toUserSummaryView(link, withheld);
  if (withheld.identifiers) return summary;
  return {
    ...summary,
    idp_identifiers: link.idpIdentifiers
      .filter((i) => refs.visible(i.idp_id))
      .map((i) => ({ id: i.id, idp_id: i.idp_id })),
  };
}

export function toTenantUserView(link: LinkedUser, withheld = NOTHING_WITHHELD): TenantUserView {
  return {
    ...(withheld.email ? {} : { user_email: link.user.email }),
    tenant_id: link.tenantId,
    constituencies: [...link.constituencies],
    user: toUserSummaryView(link, withheld),
  };
}
