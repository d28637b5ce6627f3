import type { MigrationInterface, QueryRunner } from 'typeorm';
import { replaceIndexConcurrently } from './replace-index';

const INDEX = 'IDX_roster_enrollments_class_role';
const KEY = '("tenant_id", "class_sourced_id", "role")';

/**
 * `/classes/{id}/students` (and `/teachers`, and the school-scoped forms) pick the class's active
 * members of a role from this index, then read each user. The enrollments of one class are spread
 * over the table (an import writes them in file order), so finding ~50 members visited ~50 heap
 * pages for two columns. With the member and the status in the index (INCLUDE) it is an
 * index-only scan once the table is vacuumed: a few index pages. The key is unchanged, so every
 * other plan over it stays as it was.
 *
 * roster_enrollments holds every tenant of a region: the index is replaced concurrently, outside
 * a transaction.
 */
export class IncludeMembersInEnrollmentClassIndex1765300000000 implements MigrationInterface {
  name = 'IncludeMembersInEnrollmentClassIndex1765300000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await replaceIndexConcurrently(q, 'roster_enrollments', INDEX, `${KEY} INCLUDE ("user_sourced_id", "status")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await replaceIndexConcurrently(q, 'roster_enrollments', INDEX, KEY);
  }
}
