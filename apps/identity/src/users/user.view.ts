import { ApiProperty } from '@nestjs/swagger';
import type { TenantUserEntity, UserEntity } from '@edu/persistence';
import type { ProviderRefs } from '../identity-providers/provider-refs';

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

export function toUserSummaryView(u: UserEntity): UserSummaryView {
  return { id: u.id, email: u.email, name: u.name, nickname: u.nickname, picture: u.picture };
}

/** Only identifiers at providers the viewing tenant can see (core ones and its own). */
export function toUserView(u: UserEntity, refs: ProviderRefs): UserView {
  return {
    ...toUserSummaryView(u),
    idp_identifiers: u.idpIdentifiers.filter((i) => refs.visible(i.idp_id)).map((i) => ({ id: i.id, idp_id: i.idp_id })),
  };
}

export function toTenantUserView(link: TenantUserEntity, user: UserEntity): TenantUserView {
  return { user_email: user.email, tenant_id: link.tenantId, constituencies: [...link.constituencies], user: toUserSummaryView(user) };
}
