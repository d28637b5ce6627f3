import { Injectable } from '@nestjs/common';
import { SharingReader } from './active-sharing';
import { SharedPeople } from './people';
import { SharingScopes } from './sharing-scopes';
import { limitsObjects, type SharingSpec } from './sharing-spec';

/**
 * Whether a sharing shares people known by their e-mail address (how the identity service knows
 * them: identity people and roster people are linked by address only). Under mode `all` everyone
 * is shared; otherwise a person is shared iff a roster user the spec's scope shares has their
 * address, compared case-insensitively. An empty address matches no roster user.
 */
@Injectable()
export class PersonSharing {
  constructor(
    private readonly reader: SharingReader,
    private readonly scopes: SharingScopes,
    private readonly people: SharedPeople,
  ) {}

  /** The deployment's sharing in force shares the person with this address (everything when it has none). */
  async isPersonShared(tenantId: string, deploymentId: string | undefined, email: string): Promise<boolean> {
    return this.sharesPerson(tenantId, (await this.reader.active(tenantId, deploymentId)).spec, email);
  }

  /** `spec` shares the person with this address in the tenant's roster as it is now. */
  async sharesPerson(tenantId: string, spec: SharingSpec, email: string): Promise<boolean> {
    if (!limitsObjects(spec)) return true;
    const scopeId = await this.scopes.scopeOf(tenantId, spec);
    return scopeId !== null && email !== '' && this.people.sharesEmail(tenantId, scopeId, email);
  }

  /** The addresses of `emails` (lower-cased) `spec` shares: all of them under mode `all`. */
  async sharedEmails(tenantId: string, spec: SharingSpec, emails: readonly string[]): Promise<Set<string>> {
    if (!limitsObjects(spec)) return new Set(emails.map((e) => e.toLowerCase()));
    const scopeId = await this.scopes.scopeOf(tenantId, spec);
    const known = emails.filter((e) => e !== '');
    return scopeId === null ? new Set() : this.people.sharedEmails(tenantId, scopeId, known);
  }
}
