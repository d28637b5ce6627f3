import { Column, Entity } from 'typeorm';
import { GradebookRecord } from './gradebook-record';

/** OneRoster gradebook category (reference §3.11). */
@Entity({ name: 'gradebook_categories' })
export class GradebookCategoryEntity extends GradebookRecord {
  @Column({ type: 'text' })
  title: string;
}
