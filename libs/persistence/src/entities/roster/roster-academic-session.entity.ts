import { Column, Entity, Index, Unique } from 'typeorm';
import { RosterRecord } from './roster-record';

export type RosterSessionType = 'gradingPeriod' | 'semester' | 'schoolYear' | 'term';

/** OneRoster academic session (reference §3.4): terms, grading periods, semesters, school years. */
@Entity({ name: 'roster_academic_sessions' })
@Unique('UQ_roster_academic_sessions_ordinal', ['tenantId', 'ordinal'], { deferrable: 'INITIALLY DEFERRED' })
@Unique('UQ_roster_academic_sessions_type_ordinal', ['tenantId', 'type', 'typeOrdinal'], {
  deferrable: 'INITIALLY DEFERRED',
})
@Index('IDX_roster_academic_sessions_parent', ['tenantId', 'parentSourcedId'])
export class RosterAcademicSessionEntity extends RosterRecord {
  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  type: RosterSessionType;

  /** `YYYY-MM-DD`. */
  @Column({ type: 'date', name: 'start_date' })
  startDate: string;

  /** `YYYY-MM-DD`. */
  @Column({ type: 'date', name: 'end_date' })
  endDate: string;

  @Column({ type: 'text', name: 'parent_sourced_id', nullable: true })
  parentSourcedId: string | null;

  /** Four digits: the calendar year in which the school year ends. */
  @Column({ type: 'text', name: 'school_year' })
  schoolYear: string;

  /** Position among the tenant's sessions of the same type (sourcedId order), dense. */
  @Column({ type: 'integer', name: 'type_ordinal' })
  typeOrdinal: number;
}
