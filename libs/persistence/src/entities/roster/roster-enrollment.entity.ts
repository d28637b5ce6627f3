import { Column, Entity, Index, Unique } from 'typeorm';
import { RosterRecord } from './roster-record';
import type { RosterRole } from './roster-user.entity';

/** OneRoster enrollment (reference §3.8). `school_sourced_id` equals the class's school. */
@Entity({ name: 'roster_enrollments' })
@Unique('UQ_roster_enrollments_ordinal', ['tenantId', 'ordinal'], { deferrable: 'INITIALLY DEFERRED' })
// (tenant_id, class_sourced_id, role) INCLUDE (user_sourced_id, status): a class's members read from the index alone (migration 1765300000000).
@Index('IDX_roster_enrollments_class_role', { synchronize: false })
@Index('IDX_roster_enrollments_user', ['tenantId', 'userSourcedId'])
@Index('IDX_roster_enrollments_school', ['tenantId', 'schoolSourcedId'])
export class RosterEnrollmentEntity extends RosterRecord {
  @Column({ type: 'text', name: 'class_sourced_id' })
  classSourcedId: string;

  @Column({ type: 'text', name: 'school_sourced_id' })
  schoolSourcedId: string;

  @Column({ type: 'text', name: 'user_sourced_id' })
  userSourcedId: string;

  /** Stored as imported (any RoleType); the API emits administrator, proctor, student, teacher. */
  @Column({ type: 'text' })
  role: RosterRole;

  @Column({ type: 'boolean', nullable: true })
  primary: boolean | null;

  @Column({ type: 'date', name: 'begin_date', nullable: true })
  beginDate: string | null;

  @Column({ type: 'date', name: 'end_date', nullable: true })
  endDate: string | null;
}
