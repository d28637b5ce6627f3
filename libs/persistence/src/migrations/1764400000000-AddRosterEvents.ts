import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose changes are roster events, with the name of their collection in the feed. */
export const ROSTER_EVENT_SOURCES: ReadonlyArray<readonly [table: string, object: string]> = [
  ['roster_orgs', 'orgs'],
  ['roster_academic_sessions', 'academicSessions'],
  ['roster_courses', 'courses'],
  ['roster_classes', 'classes'],
  ['roster_users', 'users'],
  ['roster_enrollments', 'enrollments'],
  ['roster_demographics', 'demographics'],
  ['roster_resources', 'resources'],
  ['gradebook_categories', 'categories'],
  ['gradebook_line_items', 'lineItems'],
  ['gradebook_results', 'results'],
  ['gradebook_score_scales', 'scoreScales'],
  ['gradebook_assessment_line_items', 'assessmentLineItems'],
  ['gradebook_assessment_results', 'assessmentResults'],
];

/**
 * The roster change feed's log (design §11, scale.md principle 7): an outbox written by the
 * database itself, in the transaction of every change, whoever makes it (imports, SIS syncs,
 * gradebook writes, sharing activations).
 *
 * - `roster_events`: one row per changed object (`created`, `updated`, `deleted`), with the former
 *   values of the fields an update changed (`previous`, stored column names). `deployment_id` set:
 *   an event of one deployment's view (objects its sharing started or stopped showing).
 * - `roster_event_batches`: one row per writing transaction and tenant, numbered (`seq`) at commit
 *   under the tenant's `roster_event_heads` row lock, so batches are numbered in commit order: a
 *   reader never sees a higher number before a lower one. An event's place is (batch, n).
 * - Statement triggers with transition tables capture the changes of every roster and gradebook
 *   table; `SET LOCAL edu.roster_events = 'off'` skips a statement that only renumbers ordinals.
 */
export class AddRosterEvents1764400000000 implements MigrationInterface {
  name = 'AddRosterEvents1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "roster_event_n_seq" CACHE 1000`);
    await q.query(`CREATE TABLE "roster_events" ("tenant_id" uuid NOT NULL, "txid" xid8 NOT NULL DEFAULT pg_current_xact_id(), "n" bigint NOT NULL DEFAULT nextval('roster_event_n_seq'), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "type" text NOT NULL, "object" text NOT NULL, "sourced_id" text NOT NULL, "previous" jsonb, "deployment_id" uuid, CONSTRAINT "PK_roster_events" PRIMARY KEY ("tenant_id", "txid", "n"))`);
    await q.query(`CREATE TABLE "roster_event_batches" ("tenant_id" uuid NOT NULL, "txid" xid8 NOT NULL, "seq" bigint, "committed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_roster_event_batches" PRIMARY KEY ("tenant_id", "txid"))`);
    await q.query(`CREATE UNIQUE INDEX "UQ_roster_event_batches_seq" ON "roster_event_batches" ("tenant_id", "seq")`);
    await q.query(`CREATE TABLE "roster_event_heads" ("tenant_id" uuid NOT NULL, "seq" bigint NOT NULL, CONSTRAINT "PK_roster_event_heads" PRIMARY KEY ("tenant_id"))`);
    await q.query(`CREATE FUNCTION roster_events_open_batch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO roster_event_batches (tenant_id, txid)
    SELECT DISTINCT e.tenant_id, pg_current_xact_id() FROM new_rows e ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$`);
    await q.query(`CREATE TRIGGER "roster_events_open_batch" AFTER INSERT ON "roster_events" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION roster_events_open_batch()`);
    await q.query(`CREATE FUNCTION roster_events_close_batch() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE next_seq bigint;
BEGIN
  INSERT INTO roster_event_heads AS h (tenant_id, seq) VALUES (NEW.tenant_id, 1)
    ON CONFLICT (tenant_id) DO UPDATE SET seq = h.seq + 1 RETURNING h.seq INTO next_seq;
  UPDATE roster_event_batches SET seq = next_seq, committed_at = clock_timestamp()
   WHERE tenant_id = NEW.tenant_id AND txid = NEW.txid;
  RETURN NULL;
END $$`);
    await q.query(`CREATE CONSTRAINT TRIGGER "roster_event_batches_close" AFTER INSERT ON "roster_event_batches" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION roster_events_close_batch()`);
    await q.query(`CREATE FUNCTION roster_events_capture_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('edu.roster_events', true) = 'off' THEN RETURN NULL; END IF;
  INSERT INTO roster_events (tenant_id, type, object, sourced_id)
    SELECT r.tenant_id, CASE WHEN r.status = 'tobedeleted' THEN 'deleted' ELSE 'created' END, TG_ARGV[0], r.sourced_id
      FROM new_rows r;
  RETURN NULL;
END $$`);
    await q.query(`CREATE FUNCTION roster_events_capture_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('edu.roster_events', true) = 'off' THEN RETURN NULL; END IF;
  INSERT INTO roster_events (tenant_id, type, object, sourced_id, previous)
    SELECT n.tenant_id,
           CASE WHEN n.status = 'tobedeleted' AND o.status <> 'tobedeleted' THEN 'deleted'
                WHEN o.status = 'tobedeleted' AND n.status <> 'tobedeleted' THEN 'created'
                ELSE 'updated' END,
           TG_ARGV[0], n.sourced_id, d.previous
      FROM new_rows n
      JOIN old_rows o ON o.tenant_id = n.tenant_id AND o.sourced_id = n.sourced_id
      CROSS JOIN LATERAL (SELECT to_jsonb(o) - '{tenant_id,ordinal,group_ordinal,type_ordinal,owner_app_id}'::text[] AS oj,
                                 to_jsonb(n) AS nj) AS j
      CROSS JOIN LATERAL (SELECT jsonb_object_agg(k.key, k.value) AS previous FROM jsonb_each(j.oj) AS k
                           WHERE k.value IS DISTINCT FROM j.nj -> k.key) AS d
     WHERE d.previous IS NOT NULL;
  RETURN NULL;
END $$`);
    for (const [table, object] of ROSTER_EVENT_SOURCES) {
      await q.query(`CREATE TRIGGER "roster_events_insert" AFTER INSERT ON "${table}" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION roster_events_capture_insert('${object}')`);
      await q.query(`CREATE TRIGGER "roster_events_update" AFTER UPDATE ON "${table}" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION roster_events_capture_update('${object}')`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table] of ROSTER_EVENT_SOURCES) {
      await q.query(`DROP TRIGGER "roster_events_update" ON "${table}"`);
      await q.query(`DROP TRIGGER "roster_events_insert" ON "${table}"`);
    }
    await q.query(`DROP TABLE "roster_event_heads"`);
    await q.query(`DROP TABLE "roster_event_batches"`);
    await q.query(`DROP TABLE "roster_events"`);
    await q.query(`DROP FUNCTION roster_events_capture_update()`);
    await q.query(`DROP FUNCTION roster_events_capture_insert()`);
    await q.query(`DROP FUNCTION roster_events_close_batch()`);
    await q.query(`DROP FUNCTION roster_events_open_batch()`);
    await q.query(`DROP SEQUENCE "roster_event_n_seq"`);
  }
}
