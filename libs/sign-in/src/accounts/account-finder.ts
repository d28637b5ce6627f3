import { Injectable } from '@nestjs/common';
import type { Account, AccountClaims, FindAccount } from 'oidc-provider';
import { SignInRepository } from '../sign-in.repository';
import { SignInSharing } from './sign-in-sharing';
import { subjectFor } from './tenant-subject';
import { withoutWithheld } from './withheld-claims';

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
 * (`subjectFor`), less what the app's deployment's sharing withholds. The tenant and the user come
 * from `sign_in_grants`; a grant whose person left the tenant, whose app is no longer deployed
 * there, or whom the school no longer shares with the app, has no account any more, so its codes,
 * refreshes and userinfo calls fail.
 */
@Injectable()
export class AccountFinder {
  constructor(
    private readonly repo: SignInRepository,
    private readonly sharing: SignInSharing,
  ) {}

  readonly findAccount: FindAccount = async (ctx, sub, token) => {
    const grantId = (token as TokenLike | undefined)?.grantId ?? ctx.oidc?.entities?.Grant?.jti;
    if (!grantId) return { accountId: sub, claims: () => ({ sub }) };
    const grant = await this.repo.grant(grantId);
    if (!grant || subjectFor(grant.tenantId, grant.userId) !== sub) return undefined;
    const [member, tenant, deploymentId] = await Promise.all([
      this.repo.memberById(grant.tenantId, grant.userId),
      this.repo.tenant(grant.tenantId),
      this.repo.deploymentId(grant.appId, grant.tenantId),
    ]);
    if (!member || !tenant || !deploymentId) return undefined;
    const seen = await this.sharing.person(tenant.id, deploymentId, member.email);
    if (!seen.shared) return undefined;
    const claims: AccountClaims = withoutWithheld(
      {
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
      },
      seen.withheld,
    );
    const account: Account = { accountId: sub, claims: () => claims };
    return account;
  };
}
