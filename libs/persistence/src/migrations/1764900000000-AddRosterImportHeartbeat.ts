import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A running operator import gets `heartbeat_at`: the process running it says every few seconds
 * that it still is, so an import whose process died without a word (SIGKILL, a lost machine) is
 * failed by another process instead of staying `running` forever. Nullable: finished rows keep none.
 */
export class AddRosterImportHeartbeat1764900000000 implements MigrationInterface {
  name = 'AddRosterImportHeartbeat1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "roster_imports" ADD "heartbeat_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "roster_imports" DROP COLUMN "heartbeat_at"`);
  }
}
