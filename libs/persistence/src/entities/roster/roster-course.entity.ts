import { Column, Entity, Index, Unique } from 'typeorm';
import { RosterRecord } from './roster-record';

/** OneRoster course (reference §3.6). */
@Entity({ name: 'roster_courses' })
@Unique('UQ_roster_courses_ordinal', ['tenantId', 'ordinal'], { deferrable: 'INITIALLY DEFERRED' })
@Index('IDX_roster_courses_org', ['tenantId', 'orgSourcedId'])
export class RosterCourseEntity extends RosterRecord {
  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text', name: 'course_code', nullable: true })
  courseCode: string | null;

  @Column({ type: 'text', name: 'school_year_sourced_id', nullable: true })
  schoolYearSourcedId: string | null;

  @Column({ type: 'text', name: 'org_sourced_id' })
  orgSourcedId: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  grades: string[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  subjects: string[];

  @Column({ type: 'text', name: 'subject_codes', array: true, default: () => "'{}'" })
  subjectCodes: string[];
}
