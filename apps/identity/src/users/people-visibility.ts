import { Injectable } from '@nestjs/common';
import { isUuid, type Principal } from '@edu/domain';
import { limitsObjects, PersonSharing, SharingReader, type SharingSpec } from '@edu/sharing';
import type { LinkedUser } from '../directory/user.repository';
import { withheldPerson, type WithheldPerson } from '@edu/sharing';

/** What one caller may see of a tenant's people: those its deployment's sharing shares, less what it withholds. */
export class PeopleView {
  readonly withheld: WithheldPerson;

  constructor(
    private readonly tenantId: string,
    private readonly spec: SharingSpec,
    private readonly people: PersonSharing,
  ) {
    this.withheld = withheldPerson(spec.withhold);
  }

  /** The records of `links` the sharing shares, in their order (people and roster users are linked by address). */
  async visible(links: LinkedUser[]): Promise<LinkedUser[]> {
    if (!limitsObjects(this.spec) || links.length === 0) return links;
    const shared = await this.people.sharedEmails(
      this.tenantId,
      this.spec,
      links.map((l) => l.user.email),
    );
    return links.filter((l) => shared.has(l.user.email.toLowerCase()));
  }

  /**
   * Whether the caller may name this person by address (single reads and changes): not when the
   * sharing does not share them, nor when it withholds contact, since answering by address would
   * confirm an address the school keeps from the app. Either way the answer is a 404 like unknown.
   */
  async addressable(link: LinkedUser): Promise<boolean> {
    if (this.withheld.email) return false;
    return (await this.visible([link])).length === 1;
  }
}

/**
 * Data sharing on the Identity API's people (users and tenant users): an app's tenant-context
 * token sees through its deployment's sharing in force; a deployment without sharing, and any
 * other caller, sees everything as before.
 */
@Injectable()
export class PeopleVisibility {
  constructor(
    private readonly reader: SharingReader,
    private readonly people: PersonSharing,
  ) {}

  async of(who: Principal, tenantId: string): Promise<PeopleView> {
    const deploymentId = who.kind === 'tenant' && isUuid(who.deploymentId) ? who.deploymentId : undefined;
    const { spec } = await this.reader.active(tenantId, deploymentId);
    return new PeopleView(tenantId, spec, this.people);
  }
}
