import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Regional data no longer holds foreign keys to identity reference tables (`tenants`, `apps`). In a
 * regional database those tables are a logical-replication copy of the global one: a replicated
 * delete must neither fail on nor cascade into regional data, and regional rows must not depend on
 * the order in which replicated rows arrive. Rows whose tenant or app is gone are removed by
 * `npm run db:cleanup-orphans` (libs/persistence/README.md). Generated with TypeORM's schema builder.
 */
export class DropForeignKeysToReplicatedTables1763770500000 implements MigrationInterface {
  name = 'DropForeignKeysToReplicatedTables1763770500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks" DROP CONSTRAINT "FK_8bb81e5461acd8515c582883c8c"`);
    await q.query(`ALTER TABLE "roster_orgs" DROP CONSTRAINT "FK_8b7ef170a1e2fa1a7125b6a2c42"`);
    await q.query(`ALTER TABLE "roster_academic_sessions" DROP CONSTRAINT "FK_0c484cbc8ed4a6f56fffe46bc39"`);
    await q.query(`ALTER TABLE "roster_courses" DROP CONSTRAINT "FK_b65c23f5fda630087de13e5014a"`);
    await q.query(`ALTER TABLE "roster_classes" DROP CONSTRAINT "FK_ae86e10c9b4176f3161f6f3389c"`);
    await q.query(`ALTER TABLE "roster_users" DROP CONSTRAINT "FK_de6137715c884edb3904abbec8c"`);
    await q.query(`ALTER TABLE "roster_enrollments" DROP CONSTRAINT "FK_893b613c6b9ea8eaee85e5f6320"`);
    await q.query(`ALTER TABLE "roster_demographics" DROP CONSTRAINT "FK_391650dcdb746da5b731ca60eae"`);
    await q.query(`ALTER TABLE "roster_data_versions" DROP CONSTRAINT "FK_7a5405e6a6fc07d0e2e4c9b9709"`);
    await q.query(`ALTER TABLE "roster_imports" DROP CONSTRAINT "FK_7b7c7c857bd85eb3ae9068b1aee"`);
  }

  /** Fails while orphaned rows exist: run the cleanup first. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "roster_imports" ADD CONSTRAINT "FK_7b7c7c857bd85eb3ae9068b1aee" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_data_versions" ADD CONSTRAINT "FK_7a5405e6a6fc07d0e2e4c9b9709" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_demographics" ADD CONSTRAINT "FK_391650dcdb746da5b731ca60eae" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_enrollments" ADD CONSTRAINT "FK_893b613c6b9ea8eaee85e5f6320" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_users" ADD CONSTRAINT "FK_de6137715c884edb3904abbec8c" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_classes" ADD CONSTRAINT "FK_ae86e10c9b4176f3161f6f3389c" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_courses" ADD CONSTRAINT "FK_b65c23f5fda630087de13e5014a" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_academic_sessions" ADD CONSTRAINT "FK_0c484cbc8ed4a6f56fffe46bc39" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_orgs" ADD CONSTRAINT "FK_8b7ef170a1e2fa1a7125b6a2c42" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "webhooks" ADD CONSTRAINT "FK_8bb81e5461acd8515c582883c8c" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }
}
