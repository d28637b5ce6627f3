import { Column, Entity, Index, Unique } from 'typeorm';
import { RosterRecord } from './roster-record';

export type RosterRole = 'administrator' | 'aide' | 'guardian' | 'parent' | 'proctor' | 'relative' | 'student' | 'teacher';

/** Partition of users served by `/students` (student), `/teachers` (staff) and neither (other). */
export type RosterRoleGroup = 'student' | 'staff' | 'other';

export function roleGroupOf(role: RosterRole): RosterRoleGroup {
  switch (role) {
    case 'student':
      return 'student';
    case 'teacher':
    case 'administrator':
    case 'aide':
    case 'proctor':
      return 'staff';
    case 'guardian':
    case 'parent':
    case 'relative':
      return 'other';
  }
}

export interface RosterUserId {
  type: string;
  identifier: string;
}

/** OneRoster user (reference §3.10). Passwords are never stored. */
@Entity({ name: 'roster_users' })
@Unique('UQ_roster_users_ordinal', ['tenantId', 'ordinal'], { deferrable: 'INITIALLY DEFERRED' })
@Unique('UQ_roster_users_group_ordinal', ['tenantId', 'roleGroup', 'groupOrdinal'], { deferrable: 'INITIALLY DEFERRED' })
// (tenant_id, lower(family_name) COLLATE "C", ordinal): an expression index, created by migration 1763769900000.
@Index('IDX_roster_users_family_name_ci', { synchronize: false })
// The same shape for the other names partners filter on (migration 1763770000000).
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
}
