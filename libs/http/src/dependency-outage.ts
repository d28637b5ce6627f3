/**
 * Recognises failures that mean PostgreSQL or Redis is unreachable, overloaded or too slow
 * (answered 503 with Retry-After), as opposed to bugs (500) or bad input (4xx). Errors are
 * recognised by shape (codes, names, the drivers' fixed messages) so this library needs neither
 * driver; TypeORM's QueryFailedError keeps the driver's `code` and its `driverError`.
 */

/** Seconds a client is asked to wait before retrying during an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** Node socket errors: the server is down, unreachable or dropped the connection. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs: class 08 connection exception, class 53 insufficient resources
 * (53300 too_many_connections), 57P01-57P03 admin/crash shutdown and cannot_connect_now, 57014
 * query_canceled (the statement timeout of a server too slow to answer).
 */
const PG_CODE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123]|57014)$/;

/** node-postgres and pg-pool messages for connections that failed, timed out or died. */
const PG_MESSAGES = [
  /^timeout exceeded when trying to connect$/,
  /^timeout expired$/, // a client's connectionTimeoutMillis
  /^Connection terminated/, // unexpectedly | due to connection timeout
  /^Query read timeout$/,
  /is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  // TypeORM releases a query runner when its connection emits an error (the server cut it:
  // shutdown, restart, network) and keeps no trace of that error: the transaction's next query
  // fails with this instead.
  /^Database connection provided by a query runner was already released/,
];

/** ioredis messages for a closed connection or a command refused while disconnected. */
const REDIS_MESSAGES = [
  /^Connection is closed\.$/,
  /enableOfflineQueue options is false$/,
  /^None of startup nodes is available$/,
  /^Reached the max retries per request limit/,
];

/** Redis replies of a server that is loading, busy, failing over or out of clients. */
const REDIS_REPLY = /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY|ERR max number of clients reached)\b/;

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  driverError?: unknown;
  errors?: unknown;
}

function isOutageItself(e: ErrorLike): boolean {
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && (SOCKET_CODES.has(code) || PG_CODE.test(code))) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (e.name === 'ReplyError' && REDIS_REPLY.test(message)) return true;
  return PG_MESSAGES.some((m) => m.test(message)) || REDIS_MESSAGES.some((m) => m.test(message));
}

/**
 * True when the error (or an error it wraps: `driverError`, `cause`, AggregateError's `errors`)
 * says a database or Redis is unavailable. Iterative and bounded: error chains can be cyclic.
 */
export function isDependencyOutage(err: unknown): boolean {
  const pending: unknown[] = [err];
  const seen = new Set<unknown>();
  while (pending.length > 0 && seen.size < 20) {
    const e = pending.pop();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    const candidate = e as ErrorLike;
    if (isOutageItself(candidate)) return true;
    pending.push(candidate.driverError, candidate.cause);
    if (Array.isArray(candidate.errors)) pending.push(...candidate.errors.slice(0, 5));
  }
  return false;
}
