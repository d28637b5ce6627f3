import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PRINCIPAL_KEY } from '@edu/auth';
import type { OneRosterResource } from '@edu/oneroster-query';
import type { Principal } from '@edu/domain';
import type { OneRosterApi } from '../common/oneroster-api';
import type { DataVersions, JsonAnswer, RosterResponse } from '../common/roster-response';
import { SharingReader } from '@edu/sharing';
import { OnerosterEnv, publicBaseUrl } from '../oneroster.env';
import { tableOf } from '../query/roster-tables-v1p2';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import { CachingMetrics } from './caching.metrics';
import { DataVersionReader } from './data-versions';
import { entityTag, normaliseQuery } from './entity-tags';
import { holds, parseIfNoneMatch } from './if-none-match';
import { ResponseCache, type CachedAnswer } from './response-cache';

/** Private: the answer depends on the token. no-cache: data can change at any time, so a client revalidates (cheaply, with If-None-Match) before reuse. */
const CACHE_CONTROL = 'private, no-cache';

/**
 * Writes the answer of a read for this access (with `rosterVersion` set to the version the answer
 * is keyed by); with `observeVersions`, the versions its rows were read at come back with it.
 */
export type RenderRead = (access: TenantAccess, observeVersions: boolean) => Promise<RosterResponse>;
/** Sends a 200 answer (the read path's JSON writer). */
export type SendRead = (out: JsonAnswer) => void;

/** The read being answered: its binding, the caller's tenant, the resource it returns, the exchange. */
export interface ReadContext {
  readonly api: OneRosterApi;
  readonly access: TenantAccess;
  readonly resource: OneRosterResource;
  readonly req: Request;
  readonly res: Response;
}

/**
 * HTTP caching of every OneRoster read (rostering, gradebook, resources; both versions), keyed by
 * the tenant's data versions read from the database on every request:
 * - every 200 carries a strong `ETag` (a hash of the versions, the caller's visibility and the
 *   normalised request) with `Cache-Control: private, no-cache` and `Vary: Authorization`;
 * - `If-None-Match` holding that tag answers 304 before any row is read;
 * - an answer this replica already wrote for the same key is sent again from memory.
 * Answers carrying a `statusInfoSet` (warnings name the request id) get no tag and are not kept.
 */
@Injectable()
export class ConditionalReads {
  private readonly publicBase: string;

  constructor(
    private readonly versions: DataVersionReader,
    private readonly cache: ResponseCache,
    private readonly metrics: CachingMetrics,
    private readonly sharing: SharingReader,
    env: OnerosterEnv,
  ) {
    this.publicBase = publicBaseUrl(env);
  }

  async answer(read: ReadContext, render: RenderRead, send: SendRead): Promise<void> {
    const condition = parseIfNoneMatch(read.req.headers['if-none-match']);
    const guess = condition ? undefined : this.versions.lastSeen(read.access.tenantId);
    const outcome = guess ? await this.answerOnGuess(read, guess, render, send) : undefined;
    if (outcome === 'sent') return;
    const versions = outcome ?? (await this.versions.read(read.access.tenantId));
    const etag = await this.etagOf(read, versions);
    if (holds(condition, etag) && !condition?.any) return this.notModified(read.res, etag);

    let out: CachedAnswer | undefined = this.cache.get(etag);
    if (out) this.metrics.count('cached');
    else {
      const fresh = await render(keyedAccess(read.access, versions), false);
      out = this.keep(etag, fresh);
      if (!out) return send(fresh);
    }
    // `*` matches any current representation: known to exist only once it was written.
    if (condition?.any) return this.notModified(read.res, etag);
    send(tagged(out, etag));
  }

  /**
   * A read without validators renders under the versions this replica last saw for the tenant,
   * reading the current ones with its rows (one round trip instead of two). The answer stands
   * when the versions that key it are the same: the rows were read at exactly those versions (or, for an empty
   * page, the versions read after the rows still equal the ones seen before, and versions only
   * grow). Otherwise nothing is sent and the versions seen are returned: the read starts again
   * under them, so a write through another replica still changes the very next answer.
   * An answer already kept under the guessed tag is not trusted this way: the versions are read
   * first, as for any read (`undefined`).
   */
  private async answerOnGuess(
    read: ReadContext,
    guess: DataVersions,
    render: RenderRead,
    send: SendRead,
  ): Promise<DataVersions | 'sent' | undefined> {
    const etag = await this.etagOf(read, guess);
    if (this.cache.get(etag)) return undefined;
    let fresh: RosterResponse;
    try {
      fresh = await render(keyedAccess(read.access, guess), true);
    } catch (err) {
      // A refusal rendered under stale versions (a 404 before an activation shared the object)
      // stands only when the versions still hold; otherwise the read starts again.
      const seen = await this.versions.read(read.access.tenantId);
      if (this.sameKeying(read, guess, seen)) throw err;
      return this.missed(read, seen);
    }
    const seen = fresh.versionsSeen ?? (await this.versions.read(read.access.tenantId));
    if (!this.sameKeying(read, guess, seen)) return this.missed(read, seen);
    const out = this.keep(etag, fresh);
    send(out ? tagged(out, etag) : fresh);
    return 'sent';
  }

  /** True when the answer keyed by `a` is also the answer under `b`. */
  private sameKeying(read: ReadContext, a: DataVersions, b: DataVersions): boolean {
    const [x, y] = [this.keyingVersions(read, a), this.keyingVersions(read, b)];
    return x.roster === y.roster && x.gradebook === y.gradebook && x.sharing === y.sharing;
  }

  /** The guess did not hold: remember what was seen and start again under it. */
  private missed(read: ReadContext, seen: DataVersions): DataVersions {
    this.versions.remember(read.access.tenantId, seen);
    this.metrics.count('guess_missed');
    return seen;
  }

  /** Keeps a rendered answer under its tag; answers with warnings are neither tagged nor kept. */
  private keep(etag: string, fresh: RosterResponse): CachedAnswer | undefined {
    if (fresh.namesRequest) {
      this.metrics.count('untagged');
      return undefined;
    }
    this.metrics.count('rendered');
    const out = { body: Buffer.from(fresh.body), headers: fresh.headers };
    this.cache.set(etag, out);
    return out;
  }

  private notModified(res: Response, etag: string): void {
    this.metrics.count('not_modified');
    res.status(304).set(validators(etag)).end();
  }

  /** The versions a read's answer depends on: the roster's and the sharing's, and the gradebook's for gradebook objects only. */
  private keyingVersions(
    { api, resource }: ReadContext,
    versions: DataVersions,
  ): { roster: string; gradebook: string | null; sharing: string } {
    const gradebook = tableOf(resource, api.version).changes === 'api';
    return { roster: versions.roster, gradebook: gradebook ? versions.gradebook : null, sharing: versions.sharing };
  }

  private async etagOf(read: ReadContext, versions: DataVersions): Promise<string> {
    const { api, access, req } = read;
    const who = (req as unknown as Record<string, unknown>)[PRINCIPAL_KEY] as Principal | undefined;
    const keying = this.keyingVersions(read, versions);
    const sharing = await this.sharing.active(access.tenantId, access.deploymentId ?? undefined, versions.sharing);
    return entityTag({
      publicBase: this.publicBase,
      apiVersion: api.version,
      tenantId: access.tenantId,
      scopes: who ? [...who.scopes] : [],
      rootOrgSourcedId: access.rootOrgSourcedId,
      output: access.output,
      sharing: sharing.hash,
      rosterVersion: keying.roster,
      gradebookVersion: keying.gradebook,
      path: req.path,
      query: normaliseQuery(req.originalUrl),
    });
  }
}

/** The caller's access keyed by the versions its answer is built on. */
function keyedAccess(access: TenantAccess, versions: DataVersions): TenantAccess {
  return {
    ...access,
    rosterVersion: versions.roster,
    sharingVersion: versions.sharing,
    gradebookVersion: versions.gradebook,
  };
}

/** A kept answer with its validators. */
function tagged(out: CachedAnswer, etag: string): JsonAnswer {
  return { body: out.body, headers: { ...out.headers, ...validators(etag) } };
}

function validators(etag: string): Record<string, string> {
  return { ETag: etag, 'Cache-Control': CACHE_CONTROL, Vary: 'Authorization' };
}
