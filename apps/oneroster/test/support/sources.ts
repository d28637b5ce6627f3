/** Shared helpers of the roster source and sync specs: tokens of the operator and of a school's admin app. */
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { TestIssuer } from '@edu/testing';

export const ADMIN = 'https://api.edu.example/scope/platform.admin';
export const TENANT_WRITE = 'https://api.edu.example/scope/id/tenant-core.write';
export const TENANT_READ = 'https://api.edu.example/scope/id/tenant-core.readonly';

export function operatorToken(issuer: TestIssuer): Promise<string> {
  return issuer.mint({ scopes: [ADMIN], sub: 'operator', clientId: 'operator' });
}

/** A tenant-context token of the school's admin app. */
export function schoolToken(issuer: TestIssuer, tenantId: string, scopes: string[], appId: string): Promise<string> {
  return issuer.mint({ scopes, tenantId, sub: appId });
}

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** A request to the admin API with an optional bearer token and JSON body. */
export function call(
  app: NestExpressApplication,
  method: Method,
  path: string,
  token?: string,
  body?: unknown,
): request.Test {
  let r = request(app.getHttpServer())[method](path);
  if (token) r = r.set('Authorization', `Bearer ${token}`);
  if (body !== undefined) r = r.send(body as object);
  return r;
}

/** The imsx error's field name and description. */
export function imsxError(body: { statusInfoSet?: Array<Record<string, unknown>> }): {
  field?: string;
  description: string;
} {
  const info = body.statusInfoSet?.[0] ?? (body as Record<string, unknown>);
  const minor = info['imsx_CodeMinor'] as
    { imsx_codeMinorField: Array<{ imsx_codeMinorFieldName: string; imsx_codeMinorFieldValue: string }> } | undefined;
  return {
    field: minor?.imsx_codeMinorField?.[0]?.imsx_codeMinorFieldName,
    description: String(info['imsx_description'] ?? ''),
  };
}
