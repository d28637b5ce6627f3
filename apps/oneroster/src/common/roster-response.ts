import type { Response } from 'express';

/** What a tenant's answers are built from: bumped by imports (roster), gradebook writes and sharing activations. */
export interface DataVersions {
  /** `roster_data_versions`: every import (bulk or delta) bumps it in its own transaction. */
  readonly roster: string;
  /** `gradebook_data_versions`: every gradebook PUT, DELETE and bulk POST bumps it in its own transaction. */
  readonly gradebook: string;
  /** `sharing_versions`: every sharing activation at the tenant bumps it in its own transaction. */
  readonly sharing: string;
}

/** A response: the JSON body as text, plus the headers that go with it. */
export interface RosterResponse {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body carries warnings (a `statusInfoSet` naming the request id): never two the same bytes. */
  readonly namesRequest?: boolean;
  /**
   * Asked for with `observeVersions`: the data versions read by the statement that read the rows
   * (its snapshot); null when no row was read (an empty page), so nothing says which they were.
   */
  readonly versionsSeen?: DataVersions | null;
}

/** A JSON answer as text, or as its UTF-8 bytes already encoded (answers kept by the response cache). */
export type JsonAnswer = Omit<RosterResponse, 'body'> & { readonly body: string | Buffer };

/** Writes the JSON text as is (it was serialised by the database; no re-encoding, no ETag hashing). */
export function sendJson(res: Response, out: JsonAnswer, status = 200): void {
  res.status(status);
  res.set(out.headers);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(out.body));
  res.end(out.body);
}
