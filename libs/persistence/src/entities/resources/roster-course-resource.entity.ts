import { Column, Entity, Index } from 'typeorm';
import { SourcedRecord } from '../sourced-record';

/** A `courseResources.csv` record: resource `resource_sourced_id` is used in the course (`Course.resources`). */
@Entity({ name: 'roster_course_resources' })
@Index('IDX_roster_course_resources_course', ['tenantId', 'courseSourcedId'])
export class RosterCourseResourceEntity extends SourcedRecord {
  @Column({ type: 'text', nullable: true })
  title: string | null;

  @Column({ type: 'text', name: 'course_sourced_id' })
  courseSourcedId: string;

  @Column({ type: 'text', name: 'resource_sourced_id' })
  resourceSourcedId: string;
}
