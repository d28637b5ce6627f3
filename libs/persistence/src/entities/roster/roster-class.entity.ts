import { Column, Entity, Index, Unique } from 'typeorm';
import { RosterRecord } from './roster-record';

export type RosterClassType = 'homeroom' | 'scheduled';

/** OneRoster class (reference §3.5). */
@Entity({ name: 'roster_classes' })
@Unique('UQ_roster_classes_ordinal', ['tenantId', 'ordinal'], { deferrable: 'INITIALLY DEFERRED' })
@Index('IDX_roster_classes_course', ['tenantId', 'courseSourcedId'])
@Index('IDX_roster_classes_school', ['tenantId', 'schoolSourcedId'])
@Index('IDX_roster_classes_terms', ['termSourcedIds'], { type: 'gin' })
export class RosterClassEntity extends RosterRecord {
  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text', name: 'class_code', nullable: true })
  classCode: string | null;

  @Column({ type: 'text', name: 'class_type' })
  classType: RosterClassType;

  @Column({ type: 'text', nullable: true })
  location: string | null;

  @Column({ type: 'text', name: 'course_sourced_id' })
  courseSourcedId: string;

  @Column({ type: 'text', name: 'school_sourced_id' })
  schoolSourcedId: string;

  /** At least one academic session. */
  @Column({ type: 'text', name: 'term_sourced_ids', array: true })
  termSourcedIds: string[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  grades: string[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  subjects: string[];

  @Column({ type: 'text', name: 'subject_codes', array: true, default: () => "'{}'" })
  subjectCodes: string[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  periods: string[];
}
