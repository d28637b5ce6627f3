import { Injectable } from '@nestjs/common';
import type { Account, AccountClaims, FindAccount } from 'oidc-provider';
import { SignInRepository } from '../sign-in.repository';
import { subjectFor } from './tenant-subject';

/** The claims of each scope (design: `openid profile email` plus the `tenant` set). */
export const SCOPE_CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'nickname', 'picture'],
  email: ['email', 'email_verified'],
  tenant: ['tenant_id', 'tenant_name', 'constituencies'],
} as const;

interface TokenLike {
  grantId?: string;
}

/**
 * oidc-provider's `findAccount`: the person as the tenant of the grant sees them (the tenant's
 * record: name, nickname, picture, constituencies), `sub` being their subject at that tenant
 * (`subjectFor`). The tenant and the user come from `sign_in_grants`;
 * a grant whose person left the tenant, or whose app is no longer deployed there, has no account
 * any more, so its codes, refreshes and userinfo calls fail.
 */
@Injectable()
export class AccountFinder {
  constructor(private readonly repo: SignInRepository) {}

  readonly findAccount: FindAccount = async (ctx, sub, token) => {
    const grantId = (token as TokenLike | undefined)?.grantId ?? ctx.oidc?.entities?.Grant?.jti;
    if (!grantId) return { accountId: sub, claims: () => ({ sub }) };
    const grant = await this.repo.grant(grantId);
    if (!grant || subjectFor(grant.tenantId, grant.userId) !== sub) return undefined;
    const [member, tenant, deployed] = await Promise.all([
      this.repo.memberById(grant.tenantId, grant.userId),
      this.repo.tenant(grant.tenantId),
      this.repo.isDeployed(grant.appId, grant.tenantId),
    ]);
    if (!member || !tenant || !deployed) return undefined;
    const claims: AccountClaims = {
      sub,
      name: member.name,
      nickname: member.nickname,
      picture: member.picture,
      email: member.email,
      // The address is the tenant's record of the person, matched by the provider's verified e-mail or identifier.
      email_verified: true,
      tenant_id: tenant.id,
      tenant_name: tenant.name,
      constituencies: member.constituencies,
    };
    const account: Account = { accountId: sub, claims: () => claims };
    return account;
  };
}
