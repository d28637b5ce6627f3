/**
 * A v1.2 user's `roles` and `userProfiles` as records of `roles.csv` and `userProfiles.csv` (the
 * binding keeps them apart from `users.csv`). The API does not expose the records' own ids, so a
 * role record's id is made from its user's and its position (`<user>#role001`: the importer lists
 * a user's roles primary first, then by record id, which keeps the source's order), and a
 * profile's from its `profileId` (a `urn:oneroster:userprofile:` URI gives back the CSV id).
 */
import { SourceError } from './guarded-http';
import { isoDate, type RecordContext } from './record-mapping';

type Json = Record<string, unknown>;

const PROFILE_URN = 'urn:oneroster:userprofile:';

export function roleRecordId(userId: string, index: number): string {
  return `${userId}#role${String(index + 1).padStart(3, '0')}`;
}

/** The sourcedId of the profile a `profileId` URI names. */
export function profileSourcedId(profileId: string): string {
  if (!profileId.startsWith(PROFILE_URN)) return profileId;
  try {
    return decodeURIComponent(profileId.slice(PROFILE_URN.length));
  } catch {
    return profileId;
  }
}

function bad(ctx: RecordContext, field: string, what: string): SourceError {
  return new SourceError(`record ${JSON.stringify(ctx.sourcedId)}: ${field} ${what}`, ctx.url.split('?')[0], field);
}

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** roles.csv cells after sourcedId, status, dateLastModified: userSourcedId, roleType, role, beginDate, endDate, orgSourcedId, userProfileSourcedId. */
export function roleRows(user: Json, ctx: RecordContext): Array<{ id: string; cells: string[] }> {
  const roles = user.roles ?? [];
  if (!Array.isArray(roles)) throw bad(ctx, 'roles', 'is not a list');
  return roles.map((r: Json, i) => {
    const org = (r?.org as Json | undefined)?.sourcedId;
    if (typeof r?.role !== 'string' || typeof org !== 'string') throw bad(ctx, `roles[${i}]`, 'has no role or org');
    const profile = typeof r.userProfile === 'string' ? profileSourcedId(r.userProfile) : '';
    return {
      id: roleRecordId(ctx.sourcedId, i),
      cells: [ctx.sourcedId, str(r.roleType), r.role, isoDate(str(r.beginDate)), isoDate(str(r.endDate)), org, profile],
    };
  });
}

/** userProfiles.csv cells: userSourcedId, profileType, vendorId, applicationId, description, credentialType, username, password. */
export function profileRows(user: Json, ctx: RecordContext): Array<{ id: string; cells: string[] }> {
  const profiles = user.userProfiles ?? [];
  if (!Array.isArray(profiles)) throw bad(ctx, 'userProfiles', 'is not a list');
  return profiles.map((p: Json, i) => {
    if (typeof p?.profileId !== 'string') throw bad(ctx, `userProfiles[${i}].profileId`, 'is missing');
    const creds = Array.isArray(p.credentials) ? (p.credentials as Json[]) : [];
    if (creds.length !== 1)
      throw bad(
        ctx,
        `userProfiles[${i}].credentials`,
        `has ${creds.length} credentials; the CSV binding carries exactly one`,
      );
    const c = creds[0]!;
    return {
      id: profileSourcedId(p.profileId),
      cells: [
        ctx.sourcedId,
        str(p.profileType),
        str(p.vendorId),
        str(p.applicationId),
        str(p.description),
        str(c.type),
        str(c.username),
        '',
      ],
    };
  });
}
