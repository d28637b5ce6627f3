import { ApiError, ApiErrorCode, webhookTargetProblem, type WebhookTargetPolicy } from '@edu/domain';

/** A 400 naming the body field (imsx `codeMinorFieldName`). */
export function badField(field: string, problem: string): ApiError {
  return new ApiError(ApiErrorCode.InvalidRequest, `${field}: ${problem}`, { parameter: field });
}

/** The body as a plain object, or a 400. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(ApiErrorCode.InvalidRequest, 'The body must be a JSON object');
  return body as Record<string, unknown>;
}

/** Refuses members outside `allowed` (a misspelt setting must not be silently ignored). */
export function onlyFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(body).find((k) => !allowed.includes(k));
  if (unknown !== undefined) throw badField(unknown, `not a field of this object (allowed: ${allowed.join(', ')})`);
}

/** No NUL or lone surrogate (PostgreSQL text cannot hold them) and no control characters. */
const CLEAN_TEXT = /^[^\u0000-\u001f\u007f\ud800-\udfff]*$/;

export function text(body: Record<string, unknown>, field: string, o: { max: number; min?: number }): string;
export function text(
  body: Record<string, unknown>,
  field: string,
  o: { max: number; min?: number; optional: true },
): string | undefined;
export function text(
  body: Record<string, unknown>,
  field: string,
  o: { max: number; min?: number; optional?: boolean },
): string | undefined {
  const v = body[field];
  if (v === undefined && o.optional) return undefined;
  if (v === undefined || v === null) throw badField(field, 'is required');
  if (typeof v !== 'string') throw badField(field, 'must be a string');
  const min = o.min ?? 1;
  if (v.length < min) throw badField(field, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
  if (v.length > o.max) throw badField(field, `must be at most ${o.max} characters`);
  if (!CLEAN_TEXT.test(v)) throw badField(field, 'must not contain control characters');
  return v;
}

export function bool(body: Record<string, unknown>, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw badField(field, 'must be true or false');
  return v;
}

export function integer(body: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw badField(field, `must be an integer from ${min} to ${max}`);
  return v;
}

export function number(body: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
    throw badField(field, `must be a number from ${min} to ${max}`);
  return v;
}

export function oneOf<T extends string>(
  body: Record<string, unknown>,
  field: string,
  values: readonly T[],
): T | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
    throw badField(field, `must be one of ${values.map((x) => `"${x}"`).join(', ')}`);
  return v as T;
}

/** An outbound URL allowed by the SSRF policy (no query or fragment: the puller adds its own). */
export function outboundUrl(
  body: Record<string, unknown>,
  field: string,
  policy: WebhookTargetPolicy,
  o: { query?: boolean } = {},
): string {
  const raw = text(body, field, { max: 2048 });
  const problem = webhookTargetProblem(raw, policy);
  if (problem) throw badField(field, problem.replace(/^endpoint/, 'the URL'));
  const url = new URL(raw);
  if (!o.query && url.search) throw badField(field, 'must not contain a query');
  return url.toString().replace(/\/+$/, '');
}
