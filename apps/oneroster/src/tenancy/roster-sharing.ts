import { Injectable } from '@nestjs/common';
import { SharingReader, SharingScopes, withheldFields, withholdsClass, type ActiveSharing } from '@edu/sharing';
import { RosterVersionsService } from './roster-versions.service';
import type { TenantAccess } from './tenant-access.service';

/** What the caller's deployment may see: the school's sharing in force and its scope at the roster version read. */
export interface RosterVisibility {
  readonly sharing: ActiveSharing;
  /** The visibility scope listing the shared objects; null when every object is shared. */
  readonly scopeId: string | null;
}

/**
 * The one place the rostering API learns what a deployment may see (design §11): the active
 * sharing, keyed by the sharing version read on this request, and its scope at the roster data
 * version the answer is built on (computed once per deployment spec and version, not per request).
 */
@Injectable()
export class RosterSharing {
  constructor(
    private readonly reader: SharingReader,
    private readonly scopes: SharingScopes,
    private readonly versions: RosterVersionsService,
  ) {}

  /** The scope of a write's references, at the tenant's current roster version (null: everything shared). */
  async scopeForWrite(access: TenantAccess): Promise<string | null> {
    return (await this.visibility(access, await this.versions.version(access.tenantId))).scopeId;
  }

  async visibility(access: TenantAccess, rosterVersion: string): Promise<RosterVisibility> {
    const version = access.sharingVersion ?? (await this.reader.version(access.tenantId));
    const sharing = await this.reader.active(access.tenantId, access.deploymentId ?? undefined, version);
    const scopeId = await this.scopes.scopeOf(access.tenantId, sharing.spec, rosterVersion);
    return { sharing, scopeId };
  }
}

/** Fields of a OneRoster class the sharing withholds from this deployment. */
export function withheldOf(v: RosterVisibility, resource: string): ReadonlySet<string> {
  return withheldFields(resource, v.sharing.spec.withhold);
}

/** True when the sharing withholds every object of the class (demographics). */
export function classWithheld(v: RosterVisibility, resource: string): boolean {
  return withholdsClass(resource, v.sharing.spec.withhold);
}
