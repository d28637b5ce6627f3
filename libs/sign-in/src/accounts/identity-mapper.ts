import { Injectable } from '@nestjs/common';
import { RefusalReason } from '../log/refusal-reason';
import type { UpstreamIdentity } from '../upstream/upstream-client';
import type { UpstreamProvider } from '../upstream/upstream-provider';
import { SignInRepository, type TenantMember } from '../sign-in.repository';
import { JitProvisioner } from './jit-provisioner';
import { identifierIdFor } from './upstream-identifier';

/** Why a verified person may not sign in here (each has its own page and log reason). */
export type Refusal = RefusalReason.NotEnrolled | RefusalReason.ProviderNotAllowed;

export type MappingResult = { member: TenantMember; linked: boolean; provisioned: boolean } | { refused: Refusal };

/**
 * Who an upstream identity is at a tenant: the tenant-user holding the identifier
 * (provider + subject); failing that, the tenant-user with the provider's verified e-mail, who
 * then gets the identifier recorded. Then the constituency rule: one of the person's
 * constituencies must allow the provider. A person found neither way may be provisioned just in
 * time (see JitProvisioner), else is not enrolled.
 */
@Injectable()
export class IdentityMapper {
  constructor(
    private readonly repo: SignInRepository,
    private readonly jit: JitProvisioner,
  ) {}

  /** `o.constituencies`: where a person provisioned just in time may go, in order (an LTI launch's roles). */
  async map(
    tenantId: string,
    provider: UpstreamProvider,
    who: UpstreamIdentity,
    o: { constituencies?: string[] } = {},
  ): Promise<MappingResult> {
    const identifier = { id: identifierIdFor(who.subject), idp_id: provider.id };
    let member = await this.repo.memberByIdentifier(tenantId, identifier);
    let linked = false;
    if (!member && who.email && who.emailVerified) {
      member = await this.repo.memberByEmail(tenantId, who.email);
      linked = member !== null;
    }
    let provisioned = false;
    if (!member) {
      const added = await this.jit.provision(tenantId, provider, who, identifier, o.constituencies);
      if (typeof added === 'object') member = await this.repo.memberById(tenantId, added.userId);
      else if (added === 'already_added') member = await this.repo.memberByIdentifier(tenantId, identifier);
      provisioned = typeof added === 'object' && member !== null;
    }
    if (!member) return { refused: RefusalReason.NotEnrolled };
    const allowed = await this.repo.allowedProviders(tenantId, member.constituencies);
    if (!allowed.has(provider.id)) return { refused: RefusalReason.ProviderNotAllowed };
    if (linked) await this.repo.addIdentifier(tenantId, member.userId, identifier);
    return { member, linked, provisioned };
  }
}
