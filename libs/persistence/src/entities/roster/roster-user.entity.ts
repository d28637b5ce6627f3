import { Column, Entity, Index, Unique } from 'typeorm';
import { RosterRecord } from './roster-record';
import type { RosterRole, RosterRoleGroup } from './roster-roles';

export { roleGroupOf, type RosterRole, type RosterRoleGroup } from './roster-roles';

export interface RosterUserId {
  type: string;
  identifier: string;
}

/**
 * One entry of a user's OneRoster v1.2 `roles` (reference oneroster-v1p2 §4.3), org by sourcedId.
 * `role` is in the v1.2 vocabulary; dates are `YYYY-MM-DD`.
 */
export interface RosterUserRole {
  roleType: 'primary' | 'secondary';
  role: string;
  org: string;
  userProfile?: string;
  beginDate?: string;
  endDate?: string;
}

/** One entry of a user's OneRoster v1.2 `userProfiles` (credentials without passwords). */
export interface RosterUserProfile {
  profileId: string;
  profileType: string;
  vendorId: string;
  applicationId?: string;
  description?: string;
  credentials?: { type: string; username: string }[];
}

/**
 * OneRoster user (reference §3.10; v1.2 §4.3). Passwords are never stored. Both versions read
 * this one row: `roles` is the v1.2 list of role/org pairs; `role`, `org_sourced_ids` and
 * `role_group` are the v1.1 view of it (primary role, every org), which the rostering indexes and
 * the `/students` and `/teachers` orderings rest on. An import writes both from the same record.
 */
@Entity({ name: 'roster_users' })
@Unique('UQ_roster_users_ordinal', ['tenantId', 'ordinal'], { deferrable: 'INITIALLY DEFERRED' })
@Unique('UQ_roster_users_group_ordinal', ['tenantId', 'roleGroup', 'groupOrdinal'], {
  deferrable: 'INITIALLY DEFERRED',
})
// (tenant_id, lower(family_name) COLLATE "C", ordinal) INCLUDE (family_name): an expression index, created by migration 1763769900000 (INCLUDE: 1764200000000).
@Index('IDX_roster_users_family_name_ci', { synchronize: false })
// The same shape for the other names partners filter on (migration 1763770000000); given_name INCLUDEd like family_name (1764200000000).
@Index('IDX_roster_users_given_name_ci', { synchronize: false })
@Index('IDX_roster_users_username_ci', { synchronize: false })
@Index('IDX_roster_users_email_ci', { synchronize: false })
@Index('IDX_roster_users_date_last_modified', ['tenantId', 'dateLastModified'])
@Index('IDX_roster_users_orgs', ['orgSourcedIds'], { type: 'gin' })
export class RosterUserEntity extends RosterRecord {
  @Column({ type: 'text' })
  username: string;

  @Column({ type: 'boolean', name: 'enabled_user' })
  enabledUser: boolean;

  @Column({ type: 'text', name: 'given_name' })
  givenName: string;

  @Column({ type: 'text', name: 'family_name' })
  familyName: string;

  @Column({ type: 'text', name: 'middle_name', nullable: true })
  middleName: string | null;

  @Column({ type: 'text' })
  role: RosterRole;

  @Column({ type: 'text', nullable: true })
  identifier: string | null;

  @Column({ type: 'text', nullable: true })
  email: string | null;

  @Column({ type: 'text', nullable: true })
  sms: string | null;

  @Column({ type: 'text', nullable: true })
  phone: string | null;

  /** At least one org. */
  @Column({ type: 'text', name: 'org_sourced_ids', array: true })
  orgSourcedIds: string[];

  @Column({ type: 'text', name: 'agent_sourced_ids', array: true, default: () => "'{}'" })
  agentSourcedIds: string[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  grades: string[];

  @Column({ type: 'jsonb', name: 'user_ids', default: () => "'[]'" })
  userIds: RosterUserId[];

  /** Derived from `role` (see `roleGroupOf`). */
  @Column({ type: 'text', name: 'role_group' })
  roleGroup: RosterRoleGroup;

  /** Position among the tenant's users of the same role group (sourcedId order), dense. */
  @Column({ type: 'integer', name: 'group_ordinal' })
  groupOrdinal: number;

  // OneRoster v1.2 fields (absent from v1.1 answers).
  @Column({ type: 'text', name: 'user_master_identifier', nullable: true })
  userMasterIdentifier: string | null;

  @Column({ type: 'text', name: 'preferred_first_name', nullable: true })
  preferredFirstName: string | null;

  @Column({ type: 'text', name: 'preferred_middle_name', nullable: true })
  preferredMiddleName: string | null;

  @Column({ type: 'text', name: 'preferred_last_name', nullable: true })
  preferredLastName: string | null;

  @Column({ type: 'text', nullable: true })
  pronouns: string | null;

  /** v1.2 `primaryOrg`; for v1.1 data the first of `orgSourcedIds`. */
  @Column({ type: 'text', name: 'primary_org_sourced_id', nullable: true })
  primaryOrgSourcedId: string | null;

  /** v1.2 `roles` (at least one); for v1.1 data derived from `role` and `orgSourcedIds`. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  roles: RosterUserRole[];

  /**
   * `roles` as JSON text, NULL without roles: kept by PostgreSQL (a stored generated column) so
   * that v1.2 reads copy the text out instead of writing it from jsonb for every row.
   */
  @Column({
    type: 'text',
    name: 'roles_text',
    nullable: true,
    generatedType: 'STORED',
    asExpression: `CASE WHEN jsonb_typeof("roles") = 'array' AND jsonb_array_length("roles") > 0 THEN "roles"::text END`,
    insert: false,
    update: false,
    select: false,
  })
  rolesText: string | null;

  @Column({ type: 'jsonb', name: 'user_profiles', default: () => "'[]'" })
  userProfiles: RosterUserProfile[];

  /** v1.2 `resources` of the user (`userResources.csv`), by resource sourcedId. */
  @Column({ type: 'text', name: 'resource_sourced_ids', array: true, default: () => "'{}'" })
  resourceSourcedIds: string[];
}
