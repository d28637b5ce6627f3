import { Column, Entity } from 'typeorm';
import { SourcedRecord } from '../sourced-record';

/** OneRoster resource (reference §3.11), imported from `resources.csv`. */
@Entity({ name: 'roster_resources' })
export class RosterResourceEntity extends SourcedRecord {
  @Column({ type: 'text', name: 'vendor_resource_id' })
  vendorResourceId: string;

  @Column({ type: 'text', nullable: true })
  title: string | null;

  /** RoleType values. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  roles: string[];

  /** `primary` or `secondary`. */
  @Column({ type: 'text', nullable: true })
  importance: string | null;

  @Column({ type: 'text', name: 'vendor_id', nullable: true })
  vendorId: string | null;

  @Column({ type: 'text', name: 'application_id', nullable: true })
  applicationId: string | null;
}
