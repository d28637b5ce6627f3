/**
 * The `RateLimit-Policy` and `RateLimit` response fields of draft-ietf-httpapi-ratelimit-headers-11
 * (§3, §4): Structured Field Lists whose items are Strings naming a policy, with Integer
 * parameters `q` (quota) and `w` (window, seconds) for a policy, `r` (available quota) and `t`
 * (effective window, seconds) for a service limit.
 */
import type { Budget } from './policies';

/** What one budget looked like after this request. */
export interface BudgetStatus {
  readonly policy: string;
  readonly remaining: number;
  /** Seconds until the window ends. */
  readonly resetSeconds: number;
}

/** An sf-string: the policy names are fixed ASCII identifiers, escaped anyway (RFC 9651 §4.1.6). */
function sfString(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A non-negative sf-integer (at most 15 digits, RFC 9651 §3.3.1). */
function sfInteger(value: number): string {
  return String(Math.min(Math.max(0, Math.floor(value)), 999_999_999_999_999));
}

/** `"read-client";q=1200;w=60, "read-tenant";q=6000;w=60` */
export function rateLimitPolicyField(budgets: readonly Budget[], windowSeconds: number): string {
  return budgets.map((b) => `${sfString(b.policy)};q=${sfInteger(b.quota)};w=${sfInteger(windowSeconds)}`).join(', ');
}

/** `"read-client";r=1187;t=42` */
export function rateLimitField(statuses: readonly BudgetStatus[]): string {
  return statuses
    .map((s) => `${sfString(s.policy)};r=${sfInteger(s.remaining)};t=${sfInteger(s.resetSeconds)}`)
    .join(', ');
}

/** Whole seconds until `ms` have passed, at least 1 (Retry-After and `t` must not point before the window ends). */
export function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
