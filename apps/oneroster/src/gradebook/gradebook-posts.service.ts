import { Injectable } from '@nestjs/common';
import { excerpt } from '@edu/oneroster-query';
import { bumpGradebookVersion } from '../caching/data-versions';
import { RosterDb, type SqlTransaction } from '../db/roster-db';
import type { RosterResponse } from '../common/roster-response';
import { RosterService, type RequestInfo } from '../roster/roster.service';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import type { FieldReader } from './gradebook-fields';
import { postedRecords, readRecord } from './gradebook-input';
import type { BulkPost } from './gradebook-posts';
import type { Values } from './gradebook-shapes';
import { GradebookWritesRepository } from './gradebook-writes.repository';
import { GradebookWritesService, refusingInput, type Writer } from './gradebook-writes.service';

type PathIds = Readonly<Record<string, string>>;

/**
 * The v1.2 bulk POSTs: every record created under a server-allocated UUID, all of them or none
 * (one transaction; the first refused record rolls the others back), at most 1000 per request.
 * Each record goes through the same checks as a PUT of its class (`GradebookWritesService`), with
 * the path's parent forced onto it. Answers 201 `{"sourcedIdPairs": [...]}` in request order.
 */
@Injectable()
export class GradebookPostsService {
  constructor(
    private readonly db: RosterDb,
    private readonly writes: GradebookWritesService,
    private readonly roster: RosterService,
    private readonly repo: GradebookWritesRepository,
  ) {}

  async post(
    op: BulkPost,
    access: TenantAccess,
    appId: string,
    ids: PathIds,
    body: unknown,
    info: RequestInfo,
  ): Promise<RosterResponse> {
    const w = await this.writes.writer(info.api, access, appId);
    return refusingInput(w.dialect, async () => {
      const records = postedRecords(op.kind, body, w.dialect.bodies.closed);
      // The path's parents through the read path: 404 as a single read of them would answer.
      for (const [param, parent] of Object.entries(op.parents))
        await this.roster.get(access, parent, ids[param] as string, {}, info);
      const pairs = await this.db.transaction(async (tx) => {
        const out: Array<{ suppliedSourcedId: string; allocatedSourcedId: string }> = [];
        for (const { suppliedId, reader } of records)
          out.push({ suppliedSourcedId: suppliedId, allocatedSourcedId: await this.create(tx, w, op, ids, reader) });
        await bumpGradebookVersion(tx, w.tenantId);
        return out;
      });
      return { body: JSON.stringify({ sourcedIdPairs: pairs }), headers: {} };
    });
  }

  private async create(
    tx: SqlTransaction,
    w: Writer,
    op: BulkPost,
    ids: PathIds,
    reader: FieldReader,
  ): Promise<string> {
    const forced = Object.entries(op.forced).map(([field, param]) => [field, ids[param] as string] as const);
    let r = reader;
    for (const [field, id] of forced) r = r.withDefault(field, { sourcedId: id });
    const values = readRecord(w.dialect.bodies, op.kind, r);
    for (const [field, id] of forced)
      if (values[field] !== id) r.fail(field, `must be the ${field} the path names ('${excerpt(id)}'), or be left out`);
    if (op.inSession)
      await this.lineItemInSession(
        tx,
        w,
        ids[op.inSession.classParam] as string,
        ids[op.inSession.sessionParam] as string,
        values,
        r,
      );
    return this.writes.createIn(tx, w, op.kind, { values, r });
  }

  /** The result's line item belongs to the class and is graded in the session (its academicSession or gradingPeriod). */
  private async lineItemInSession(
    tx: SqlTransaction,
    w: Writer,
    classId: string,
    sessionId: string,
    values: Values,
    r: FieldReader,
  ): Promise<void> {
    const id = values.lineItem as string;
    const lineItem = await this.repo.lockLineItem(tx, w.tenantId, id);
    if (lineItem?.status !== 'active') return; // the result's own checks name it
    if (lineItem.classId !== classId)
      r.fail('lineItem', `'${excerpt(id)}' is not a line item of class '${excerpt(classId)}'`);
    if (lineItem.academicSessionId !== sessionId && lineItem.gradingPeriodId !== sessionId) {
      r.fail('lineItem', `'${excerpt(id)}' has neither academicSession nor gradingPeriod '${excerpt(sessionId)}'`);
    }
  }
}
