import { Column, Entity, Index, Unique } from 'typeorm';
import { RosterRecord } from './roster-record';

export type RosterOrgType = 'department' | 'school' | 'district' | 'local' | 'state' | 'national';

/** OneRoster org (reference §3.9); `children` are derived from `parent_sourced_id`. */
@Entity({ name: 'roster_orgs' })
@Unique('UQ_roster_orgs_ordinal', ['tenantId', 'ordinal'], { deferrable: 'INITIALLY DEFERRED' })
@Index('IDX_roster_orgs_parent', ['tenantId', 'parentSourcedId'])
export class RosterOrgEntity extends RosterRecord {
  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  type: RosterOrgType;

  @Column({ type: 'text', nullable: true })
  identifier: string | null;

  @Column({ type: 'text', name: 'parent_sourced_id', nullable: true })
  parentSourcedId: string | null;
}
