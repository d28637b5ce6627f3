import { ApiError, isUuid } from '@edu/domain';
import { isEmail, isFQDN } from 'class-validator';

/*
 * Path identifiers. An id of the wrong shape answers exactly like an unknown id: 404 not_found
 * (design §7), so callers cannot tell "malformed" from "absent" from "another tenant's".
 */

export function uuidOr404(raw: string, what: string): string {
  if (!isUuid(raw)) throw ApiError.notFound(what);
  return raw.toLowerCase();
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function emailOr404(raw: string, what = 'User'): string {
  const email = normalizeEmail(raw);
  if (!isEmail(email)) throw ApiError.notFound(what);
  return email;
}

export const FQDN_OPTIONS = {
  require_tld: true,
  allow_underscores: false,
  allow_trailing_dot: false,
  allow_numeric_tld: false,
} as const;

export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase();
}

export function domainOr404(raw: string): string {
  const domain = normalizeDomain(raw);
  if (domain.length > 253 || !isFQDN(domain, FQDN_OPTIONS)) throw ApiError.notFound('Vanity domain');
  return domain;
}
