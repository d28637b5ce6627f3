import { Column, Entity } from 'typeorm';
import { GradebookRecord } from './gradebook-record';

/** OneRoster gradebook category (reference §3.11; v1.2 §4.4 adds `weight`). */
@Entity({ name: 'gradebook_categories' })
export class GradebookCategoryEntity extends GradebookRecord {
  @Column({ type: 'text' })
  title: string;

  /** v1.2: the category's weight in the final score. */
  @Column({ type: 'double precision', nullable: true })
  weight: number | null;
}
