import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError, ApiErrorCode } from '@edu/domain';
import type { UserIdpIdentifier } from '@edu/persistence';
import { PeopleProvisioning } from '../host';
import type { UpstreamIdentity } from '../upstream/upstream-client';
import type { UpstreamProvider } from '../upstream/upstream-provider';

/** What just-in-time provisioning did: the new person's id, nothing (rules say no), or lost a race. */
export type Provisioned = { userId: string; constituency: string } | 'not_allowed' | 'already_added';

/**
 * Just-in-time provisioning: a person the tenant does not know is added at sign-in
 * only when the provider has `provision_just_in_time` and a constituency of the tenant allows both
 * the provider and self-service provisioning. They join one constituency: the first such one by
 * id (one, not all: a provider allowed to students and staff must not make anyone both). Users
 * are keyed by e-mail, so the provider must vouch for a verified address. Person and tenant-user
 * record are written by the host's own code (`PeopleProvisioning`), in one transaction. When the sign-in names
 * where the person belongs (`preferred`, e.g. from an LTI launch's roles), they join the first of
 * those that qualifies, and no other.
 */
@Injectable()
export class JitProvisioner {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly people: PeopleProvisioning,
  ) {}

  async provision(
    tenantId: string,
    provider: UpstreamProvider,
    who: UpstreamIdentity,
    identifier: UserIdpIdentifier,
    preferred?: string[],
  ): Promise<Provisioned> {
    if (!provider.provisionJustInTime || !who.email || !who.emailVerified) return 'not_allowed';
    const email = who.email;
    try {
      return await this.ds.transaction(async (m) => {
        const qualifying = await this.people.selfServiceConstituencies(tenantId, provider.id, m);
        const constituency = preferred ? preferred.find((c) => qualifying.includes(c)) : qualifying[0];
        if (!constituency) return 'not_allowed' as const;
        const name = who.name ?? email;
        const record = {
          constituencies: [constituency],
          name,
          nickname: who.nickname ?? name,
          picture: httpsOrEmpty(who.picture),
          idpIdentifiers: [identifier],
        };
        const link = await this.people.addToTenant(tenantId, email, record, m);
        return { userId: link.userId, constituency };
      });
    } catch (err) {
      // A second sign-in of the same new person added them first: use that record.
      if ((err instanceof ApiError && err.code === ApiErrorCode.Conflict) || isUniqueViolation(err))
        return 'already_added';
      throw err;
    }
  }
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { driverError?: { code?: string } })?.driverError?.code === '23505';
}

/** Only an https picture URL is kept from a provider's claims. */
function httpsOrEmpty(url: string | undefined): string {
  return url && /^https:\/\/[^\s]+$/i.test(url) && url.length <= 2048 ? url : '';
}
