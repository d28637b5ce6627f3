import { Column, Entity, Index } from 'typeorm';
import { SourcedRecord } from '../sourced-record';

/*
 * The OneRoster v1.2 CSV files that describe parts of a user (reference oneroster-v1p2 §10):
 * each row keeps its own sourcedId and status so later delta files can change or tombstone it.
 * After each import the user's `roles`, `user_profiles` and `resource_sourced_ids` (and the v1.1
 * view of the roles) are rebuilt from the active rows; reads use only the user row.
 */

/** A `roles.csv` record: the user holds `role` at `org` (v1.2 vocabulary). */
@Entity({ name: 'roster_user_roles' })
@Index('IDX_roster_user_roles_user', ['tenantId', 'userSourcedId'])
export class RosterUserRoleRecordEntity extends SourcedRecord {
  @Column({ type: 'text', name: 'user_sourced_id' })
  userSourcedId: string;

  @Column({ type: 'text', name: 'role_type' })
  roleType: 'primary' | 'secondary';

  @Column({ type: 'text' })
  role: string;

  @Column({ type: 'text', name: 'org_sourced_id' })
  orgSourcedId: string;

  @Column({ type: 'text', name: 'user_profile_sourced_id', nullable: true })
  userProfileSourcedId: string | null;

  @Column({ type: 'date', name: 'begin_date', nullable: true })
  beginDate: string | null;

  @Column({ type: 'date', name: 'end_date', nullable: true })
  endDate: string | null;
}

/** A `userProfiles.csv` record: one credential of one of the user's profiles (the password is never stored). */
@Entity({ name: 'roster_user_profiles' })
@Index('IDX_roster_user_profiles_user', ['tenantId', 'userSourcedId'])
export class RosterUserProfileRecordEntity extends SourcedRecord {
  @Column({ type: 'text', name: 'user_sourced_id' })
  userSourcedId: string;

  @Column({ type: 'text', name: 'profile_type' })
  profileType: string;

  @Column({ type: 'text', name: 'vendor_id' })
  vendorId: string;

  @Column({ type: 'text', name: 'application_id', nullable: true })
  applicationId: string | null;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', name: 'credential_type' })
  credentialType: string;

  @Column({ type: 'text' })
  username: string;
}

/** A `userResources.csv` record: resource `resource_sourced_id` is made available to the user. */
@Entity({ name: 'roster_user_resources' })
@Index('IDX_roster_user_resources_user', ['tenantId', 'userSourcedId'])
export class RosterUserResourceRecordEntity extends SourcedRecord {
  @Column({ type: 'text', name: 'user_sourced_id' })
  userSourcedId: string;

  @Column({ type: 'text', name: 'org_sourced_id', nullable: true })
  orgSourcedId: string | null;

  @Column({ type: 'text', name: 'class_sourced_id', nullable: true })
  classSourcedId: string | null;

  @Column({ type: 'text', name: 'resource_sourced_id' })
  resourceSourcedId: string;
}
