import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiError, ApiErrorCode, isUuid } from '@edu/domain';
import { excerpt } from '@edu/oneroster-query';
import { bumpGradebookVersion } from '../caching/data-versions';
import type { OneRosterApi } from '../common/oneroster-api';
import { tableOf } from '../query/roster-tables-v1p2';
import { RosterDb, type SqlTransaction } from '../db/roster-db';
import { rowSerializer, type RowSerializer } from '../roster/roster-serializer';
import type { RosterResponse } from '../common/roster-response';
import type { RequestInfo } from '../roster/roster.service';
import { RosterSharing } from '../tenancy/roster-sharing';
import { outputFor, type TenantAccess } from '../tenancy/tenant-access.service';
import { collectionOf, GRADEBOOK, singleKeyOf, type GradebookClass } from './gradebook-classes';
import { DIALECTS, type GradebookDialect } from './gradebook-dialects';
import {
  checkSourcedId,
  columnsOf,
  GradebookInputError,
  readGradebookBody,
  type ColumnValue,
  type ReadObject,
} from './gradebook-input';
import { GradebookReferences } from './gradebook-references';
import { GradebookWritesRepository } from './gradebook-writes.repository';

/** The outcome of a PUT: created (201) or replaced (200); the body is empty when the binding answers a creation without one. */
export interface PutOutcome extends RosterResponse {
  readonly created: boolean;
}

/** Who writes, for which tenant, under which binding's rules. */
export interface Writer {
  readonly dialect: GradebookDialect;
  readonly tenantId: string;
  /** The owning app (the token's `sub`). */
  readonly owner: string;
  /** The deployment's sharing scope (null: it sees everything): what it may reference and delete. */
  readonly scope: string | null;
}

/** Runs `work`, turning body problems into the binding's errors (envelope 400; fields 400 in v1.1, 422 in v1.2). */
export async function refusingInput<T>(dialect: GradebookDialect, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof GradebookInputError)) throw err;
    throw new ApiError(err.problem === 'envelope' ? ApiErrorCode.ValidationFailed : dialect.fieldError, err.message, {
      parameter: err.field,
    });
  }
}

/**
 * PUT and DELETE of the gradebook classes (reference §6.3, v1.2 §5.2), for the app of a
 * tenant-context token, under either binding's rules (`gradebook-dialects.ts`); bulk POSTs
 * create through `createIn`.
 *
 * - PUT creates (201) or replaces (200) the object at the path's sourcedId, in one transaction:
 *   body checks, then ownership, then references, then the write, then the tenant's gradebook
 *   data version (every write bumps it: cached reads and ETags are keyed by it). Nothing is written when any
 *   check fails. A replace writes the columns its binding knows: a v1.1 PUT leaves the v1.2-only
 *   columns as they are.
 * - The app that created an object owns it: other apps may read it but not replace or delete it
 *   (403). Imported objects (CSV) belong to the import: no app may.
 * - DELETE tombstones (`tobedeleted`, `dateLastModified` bumped): the object then reads as 404
 *   and shows in delta reads. A line item takes its results with it, an assessment line item
 *   its assessment results. A PUT on a deleted object re-creates it (201) for its owner.
 */
@Injectable()
export class GradebookWritesService {
  constructor(
    private readonly db: RosterDb,
    private readonly repo: GradebookWritesRepository,
    private readonly refs: GradebookReferences,
    private readonly sharing: RosterSharing,
  ) {}

  async writer(api: OneRosterApi, access: TenantAccess, appId: string): Promise<Writer> {
    const owner = ownerOf(appId);
    const scope = await this.sharing.scopeForWrite(access);
    return { dialect: DIALECTS[api.version], tenantId: access.tenantId, owner, scope };
  }

  async put(
    api: OneRosterApi,
    kind: GradebookClass,
    access: TenantAccess,
    appId: string,
    id: string,
    body: unknown,
    info: RequestInfo,
  ): Promise<PutOutcome> {
    const w = await this.writer(api, access, appId);
    const idProblem = checkSourcedId(id);
    if (idProblem)
      throw new ApiError(ApiErrorCode.ValidationFailed, `The sourcedId in the path ${idProblem}`, {
        parameter: 'sourcedId',
      });
    const output = outputFor(api, access);
    const serializer = rowSerializer(tableOf(kind, api.version), undefined, {
      dateMode: output.dateMode,
      booleans: output.booleans,
      hrefRoots: info.hrefRoots,
    });
    return refusingInput(w.dialect, async () => {
      const read = readGradebookBody(w.dialect.bodies, kind, body, id);
      const out = await this.db.transaction(async (tx) => {
        const put = await this.putIn(tx, w, kind, id, read, serializer);
        await bumpGradebookVersion(tx, w.tenantId);
        return put;
      });
      // A header is ASCII: the id fully percent-encoded (the body's href is the same IRI, escaped as in every href).
      const headers: Record<string, string> = out.created
        ? { Location: `${info.hrefRoots.gradebook}/${collectionOf(kind)}/${encodeURIComponent(id)}` }
        : {};
      return { ...out, headers };
    });
  }

  private async putIn(
    tx: SqlTransaction,
    w: Writer,
    kind: GradebookClass,
    id: string,
    read: ReadObject,
    serializer: RowSerializer,
  ): Promise<PutOutcome> {
    const before = await this.repo.state(tx, kind, w.tenantId, id);
    if (before) this.assertOwner(w, kind, id, before.ownerAppId);
    const columns = await this.columns(tx, w, kind, id, read);
    let created = !before || before.status !== 'active';
    let row = before
      ? undefined
      : await this.repo.insert(tx, kind, w.tenantId, id, w.owner, columns, serializer.columns);
    if (!before && !row) {
      // Another request created it between our read and our insert: replace it if ours.
      const now = await this.repo.state(tx, kind, w.tenantId, id);
      this.assertOwner(w, kind, id, now?.ownerAppId ?? null);
      created = now?.status !== 'active';
    }
    // The written row comes back from the write itself; a replace that changed nothing is read.
    row ??=
      (await this.repo.replace(tx, kind, w.tenantId, id, w.owner, columns, serializer.columns)) ??
      (await this.repo.read(tx, kind, w.tenantId, id, serializer.columns));
    if (!row) throw new Error(`${kind} ${id} vanished inside its own transaction`);
    const body =
      created && !w.dialect.createdWithBody ? '' : `{${JSON.stringify(singleKeyOf(kind))}:${serializer.write(row)}}`;
    return { created, headers: {}, body };
  }

  /** Creates an object read from a bulk POST under a server-allocated id; returns that id. */
  async createIn(tx: SqlTransaction, w: Writer, kind: GradebookClass, read: ReadObject): Promise<string> {
    const id = randomUUID();
    const columns = await this.columns(tx, w, kind, id, read);
    if (!(await this.repo.insert(tx, kind, w.tenantId, id, w.owner, columns, 't.sourced_id')))
      throw new Error(`allocated ${kind} id ${id} already taken`);
    return id;
  }

  /** The columns the binding writes: the body's, after its references are checked, and those derived from them. */
  private async columns(
    tx: SqlTransaction,
    w: Writer,
    kind: GradebookClass,
    id: string,
    { values, r }: ReadObject,
  ): Promise<ColumnValue[]> {
    const derived = await this.refs.check(w.dialect.bodies, kind, {
      tx,
      tenantId: w.tenantId,
      id,
      values,
      r,
      scope: w.scope,
    });
    return [...columnsOf(w.dialect.bodies, kind, values), ...derived];
  }

  async delete(
    api: OneRosterApi,
    kind: GradebookClass,
    access: TenantAccess,
    appId: string,
    id: string,
  ): Promise<void> {
    const w = await this.writer(api, access, appId);
    const notFound = () =>
      new ApiError(ApiErrorCode.NotFound, `No ${GRADEBOOK[kind].noun} with sourcedId '${excerpt(id)}'`);
    if (checkSourcedId(id)) throw notFound();
    await this.db.transaction(async (tx) => {
      const before = await this.repo.state(tx, kind, w.tenantId, id);
      if (!before || before.status !== 'active') throw notFound();
      // An object the deployment's sharing hides is unknown to it.
      const { table } = GRADEBOOK[kind];
      if (w.scope !== null && !(await this.repo.visibleToScope(tx, kind, table, w.tenantId, id, w.scope)))
        throw notFound();
      this.assertOwner(w, kind, id, before.ownerAppId);
      if (!(await this.repo.tombstone(tx, kind, w.tenantId, id, w.owner))) throw notFound(); // deleted meanwhile
      await this.repo.tombstoneDependents(tx, kind, w.tenantId, id);
      await bumpGradebookVersion(tx, w.tenantId);
    });
  }

  private assertOwner(w: Writer, kind: GradebookClass, id: string, stored: string | null): void {
    if (stored === w.owner) return;
    const who = stored === null ? "the school's data import" : 'another app';
    throw new ApiError(
      ApiErrorCode.InsufficientScope,
      `The ${GRADEBOOK[kind].noun} '${excerpt(id)}' was created by ${who}; only its creator may replace or delete it`,
      {
        imsxCodeMinor: w.dialect.notOwner,
      },
    );
  }
}

/** The app id a write is recorded under: the token's `sub`, which must be an app id. */
function ownerOf(appId: string): string {
  if (!isUuid(appId))
    throw new ApiError(ApiErrorCode.InsufficientScope, 'The token names no app that could own gradebook objects');
  return appId.toLowerCase();
}
