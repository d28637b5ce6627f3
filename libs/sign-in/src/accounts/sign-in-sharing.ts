import { Injectable } from '@nestjs/common';
import { PersonSharing, SharingReader } from '@edu/sharing';
import { withheldPerson } from '@edu/sharing';
import { memoRead } from '../reads/request-reads';
import { READ_KEYS } from '../reads/read-keys';
import { SignInRepository } from '../sign-in.repository';
import { withheldClaims } from './withheld-claims';

/** What an app may know of a person at sign-in under its deployment's sharing in force. */
export interface SharedPerson {
  /** The school shares the person with the app (always, for a deployment without sharing). */
  readonly shared: boolean;
  /** Claims and SAML attributes the app must not receive. */
  readonly withheld: ReadonlySet<string>;
}

/**
 * Data sharing at sign-in (OpenID Connect, SAML, LTI): whether the school shares the person
 * with the app, and what it withholds. Whether a person is shared is the sharing library's answer
 * (a roster user the deployment's scope shares has the person's e-mail address), never decided here.
 */
@Injectable()
export class SignInSharing {
  constructor(
    private readonly repo: SignInRepository,
    private readonly reader: SharingReader,
    private readonly people: PersonSharing,
  ) {}

  /**
   * The person with this address, as the deployment's sharing in force now sees them. The
   * tenant's sharing version is read on this request (every activation bumps it), so the sharing
   * itself comes from the reader's memory once known.
   */
  async person(tenantId: string, deploymentId: string, email: string): Promise<SharedPerson> {
    const version = await memoRead(READ_KEYS.sharingVersion(tenantId), () => this.reader.version(tenantId));
    const { spec } = await this.reader.active(tenantId, deploymentId, version);
    const shared = await this.people.sharesPerson(tenantId, spec, email);
    return { shared, withheld: withheldClaims(withheldPerson(spec.withhold)) };
  }

  /** True when the app's deployment at the tenant shares this member (false when either is gone). */
  async sharesMember(tenantId: string, appId: string, userId: string): Promise<boolean> {
    const [member, deploymentId] = await Promise.all([
      this.repo.memberById(tenantId, userId),
      this.repo.deploymentId(appId, tenantId),
    ]);
    if (!member || !deploymentId) return false;
    return (await this.person(tenantId, deploymentId, member.email)).shared;
  }
}
