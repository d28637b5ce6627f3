import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A tenant's identity provider gets an optional `display_name`: what its sign-in button says
 * ("Sign in with <display_name>"), instead of the host of its authorization URL. Nullable: nothing
 * is rewritten.
 */
export class AddIdentityProviderDisplayName1764800000000 implements MigrationInterface {
  name = 'AddIdentityProviderDisplayName1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "identity_providers" ADD "display_name" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "identity_providers" DROP COLUMN "display_name"`);
  }
}
