import { ApiProperty } from '@nestjs/swagger';
import type { ProviderRefs } from '../identity-providers/provider-refs';
import type { LinkedUser } from './user.repository';

export class IdpIdentifierView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'Identity provider id' }) idp_id: string;
}

export class UserSummaryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty() name: string;
  @ApiProperty() nickname: string;
  @ApiProperty({ description: 'URL' }) picture: string;
}

/** Spec 2.7. */
export class UserView extends UserSummaryView {
  @ApiProperty({ type: [IdpIdentifierView] }) idp_identifiers: IdpIdentifierView[];
}

/** Spec 2.6. */
export class TenantUserView {
  @ApiProperty() user_email: string;
  @ApiProperty({ format: 'uuid' }) tenant_id: string;
  @ApiProperty({ type: [String] }) constituencies: string[];
  @ApiProperty({ type: UserSummaryView }) user: UserSummaryView;
}

/** The person's id and address with this tenant's own profile of them. */
export function toUserSummaryView(link: LinkedUser): UserSummaryView {
  return { id: link.user.id, email: link.user.email, name: link.name, nickname: link.nickname, picture: link.picture };
}

/**
 * This tenant's identifiers of the person. Writes accept only providers the tenant can see; the
 * filter is a second guard, so a record can never show an identifier at another tenant's provider.
 */
export function toUserView(link: LinkedUser, refs: ProviderRefs): UserView {
  return {
    ...toUserSummaryView(link),
    idp_identifiers: link.idpIdentifiers
      .filter((i) => refs.visible(i.idp_id))
      .map((i) => ({ id: i.id, idp_id: i.idp_id })),
  };
}

export function toTenantUserView(link: LinkedUser): TenantUserView {
  return {
    user_email: link.user.email,
    tenant_id: link.tenantId,
    constituencies: [...link.constituencies],
    user: toUserSummaryView(link),
  };
}
