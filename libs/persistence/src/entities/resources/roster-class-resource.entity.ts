import { Column, Entity, Index } from 'typeorm';
import { SourcedRecord } from '../sourced-record';

/** A `classResources.csv` record: resource `resource_sourced_id` is used in the class (`Class.resources`). */
@Entity({ name: 'roster_class_resources' })
@Index('IDX_roster_class_resources_class', ['tenantId', 'classSourcedId'])
export class RosterClassResourceEntity extends SourcedRecord {
  @Column({ type: 'text', nullable: true })
  title: string | null;

  @Column({ type: 'text', name: 'class_sourced_id' })
  classSourcedId: string;

  @Column({ type: 'text', name: 'resource_sourced_id' })
  resourceSourcedId: string;
}
