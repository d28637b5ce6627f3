import type { Request } from 'express';
import type { Principal } from '@edu/domain';
import { rateLimitField, rateLimitPolicyField, secondsUntil } from './headers';
import { budgetsFor, groupRules, partitionOf, type Quotas } from './policies';
import { byMethod, subjectOf, tokenRequestClientId } from './subject';

const QUOTAS: Quotas = {
  RATE_LIMIT_WINDOW_SECONDS: 60,
  RATE_LIMIT_TOKEN_PER_CLIENT: 300,
  RATE_LIMIT_TOKEN_PER_ADDRESS: 600,
  RATE_LIMIT_TOKEN_FAILURES_PER_CLIENT_ADDRESS: 20,
  RATE_LIMIT_TOKEN_FAILURES_PER_ADDRESS: 100,
  RATE_LIMIT_READ_PER_CLIENT: 1200,
  RATE_LIMIT_READ_PER_TENANT: 6000,
  RATE_LIMIT_WRITE_PER_CLIENT: 300,
  RATE_LIMIT_WRITE_PER_TENANT: 1200,
  RATE_LIMIT_GRADEBOOK_WRITE_PER_CLIENT: 600,
  RATE_LIMIT_GRADEBOOK_WRITE_PER_TENANT: 3000,
  RATE_LIMIT_ALERT_SUBMISSIONS: 600,
  RATE_LIMIT_ANONYMOUS_PER_ADDRESS: 600,
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: 3000,
  RATE_LIMIT_SIGN_IN_ASSETS_PER_ADDRESS: 6000,
};

const request = (o: Partial<Request>) =>
  ({ ip: '192.0.2.10', headers: {}, body: {}, socket: {}, ...o }) as unknown as Request;
const tenantToken: Principal = {
  kind: 'tenant',
  appId: 'app-1',
  clientId: 'client-1',
  tenantId: 'tenant-1',
  deploymentId: 'dep-1',
  scopes: new Set(),
  tokenId: 'j',
};

describe('RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-11)', () => {
  it('writes each policy as an sf-string item with q and w, and each service limit with r and t', () => {
    const rules = groupRules(QUOTAS);
    expect(rateLimitPolicyField(rules.read.budgets, 60)).toBe('"read-client";q=1200;w=60, "read-tenant";q=6000;w=60');
    expect(rateLimitField([{ policy: 'read-client', remaining: 1187, resetSeconds: 42 }])).toBe(
      '"read-client";r=1187;t=42',
    );
    expect(rateLimitField([{ policy: 'x"y', remaining: -3, resetSeconds: 1.7 }])).toBe('"x\\"y";r=0;t=1');
  });

  it('rounds the time left up to whole seconds, never below 1 (Retry-After must not point before the window ends)', () => {
    expect([secondsUntil(0), secondsUntil(1), secondsUntil(1000), secondsUntil(1001), secondsUntil(59_999)]).toEqual([
      1, 1, 1, 2, 60,
    ]);
  });
});

describe('who spends which budget', () => {
  it('a tenant-context token spends its deployment\u2019s and its tenant\u2019s budgets; an override replaces the client quota only', () => {
    const subject = subjectOf(request({ method: 'GET' }), 'read', tenantToken);
    expect(subject).toEqual({
      group: 'read',
      address: '192.0.2.10',
      client: 'deployment:dep-1',
      tenant: 'tenant:tenant-1',
      deploymentId: 'dep-1',
    });
    expect(budgetsFor(groupRules(QUOTAS).read, subject, 30).map((b) => [b.policy, b.quota])).toEqual([
      ['read-client', 30],
      ['read-tenant', 6000],
    ]);
  });

  it('an operator or developer token has no tenant budget; a request without a token spends its address\u2019s', () => {
    const operator: Principal = {
      kind: 'operator',
      appId: 'operator',
      clientId: 'operator',
      scopes: new Set(),
      tokenId: 'j',
    };
    const subject = subjectOf(request({ method: 'POST' }), 'alert-submission', operator);
    expect(budgetsFor(groupRules(QUOTAS)['alert-submission'], subject).map((b) => b.policy)).toEqual([
      'alert-submissions',
    ]);
    expect(
      budgetsFor(groupRules(QUOTAS).write, subjectOf(request({}), 'write', operator)).map((b) => b.policy),
    ).toEqual(['write-client']);
    expect(subjectOf(request({ method: 'GET' }), 'read', undefined)).toEqual({
      group: 'anonymous',
      address: '192.0.2.10',
    });
  });

  it('the policy table: each group\u2019s budgets in order, their partitions, and what happens while Redis is down', () => {
    const table = Object.entries(groupRules(QUOTAS)).map(([group, r]) => [
      group,
      r.budgets
        .map((b) => `${b.policy}/${b.partition}=${b.quota}${b.spentBy === 'request' ? '' : ` on ${b.spentBy}`}`)
        .join(' '),
      r.whenStoreDown,
    ]);
    expect(table).toEqual([
      [
        'token',
        'token-address/address=600 token-failures-address/address=100 on failure token-failures-client-address/client-address=20 on failure token-client/client=300 on success',
        'local',
      ],
      [
        'oidc-token',
        'token-address/address=600 token-failures-address/address=100 on failure token-failures-client-address/client-address=20 on failure',
        'local',
      ],
      [
        'client-auth',
        'anonymous/address=600 token-failures-address/address=100 on failure token-failures-client-address/client-address=20 on failure',
        'local',
      ],
      ['read', 'read-client/client=1200 read-tenant/tenant=6000', 'allow'],
      ['write', 'write-client/client=300 write-tenant/tenant=1200', 'refuse'],
      ['gradebook-write', 'gradebook-write-client/client=600 gradebook-write-tenant/tenant=3000', 'refuse'],
      ['alert-submission', 'alert-submissions/client=600', 'refuse'],
      ['anonymous', 'anonymous/address=600', 'allow'],
      ['sign-in', 'sign-in/address=3000', 'allow'],
      ['sign-in-asset', 'sign-in-assets/address=6000', 'allow'],
    ]);
  });

  it('a sign-in (pages, assets) spends its address\u2019s own budgets, with or without a token, never the anonymous budget', () => {
    for (const group of ['sign-in', 'sign-in-asset'] as const) {
      expect(subjectOf(request({ method: 'GET' }), group, undefined)).toEqual({ group, address: '192.0.2.10' });
      expect(subjectOf(request({ method: 'POST' }), group, tenantToken)).toEqual({ group, address: '192.0.2.10' });
    }
    expect(budgetsFor(groupRules(QUOTAS)['sign-in'], { group: 'sign-in', address: 'a' }).map((b) => b.policy)).toEqual([
      'sign-in',
    ]);
  });

  it('a token request names its client id (Basic, decoded as the endpoints decode it, or form); unknown is empty', () => {
    const basic = (id: string) =>
      request({ headers: { authorization: `Basic ${Buffer.from(`${id}:s3cret`).toString('base64')}` } });
    expect(tokenRequestClientId(basic('app'))).toBe('app');
    // One id spelt two ways names the same budgets (RFC 6749 §2.3.1 form-encoding inside Basic).
    expect(tokenRequestClientId(basic('%61pp+1'))).toBe('app 1');
    expect(tokenRequestClientId(basic('%E0%A4%A'))).toBe('%E0%A4%A');
    expect(tokenRequestClientId(request({ body: { client_id: 'form-client' } }))).toBe('form-client');
    expect(tokenRequestClientId(request({ headers: { authorization: 'Basic !!' }, body: {} }))).toBeUndefined();
    for (const group of ['token', 'oidc-token', 'client-auth'] as const)
      expect(subjectOf(request({ body: { client_id: 'c' } }), group, undefined)).toEqual({
        group,
        address: '192.0.2.10',
        client: 'token:c',
      });
  });

  it('a token request spends its address\u2019s budget up front; failures count per address and per client id at that address, successes per client id', () => {
    const subject = subjectOf(request({ body: { client_id: 'form-client' } }), 'token', undefined);
    expect(
      budgetsFor(groupRules(QUOTAS).token, subject).map((b) => [
        b.policy,
        partitionOf(subject, b.partition),
        b.spentBy,
      ]),
    ).toEqual([
      ['token-address', '192.0.2.10', 'request'],
      ['token-failures-address', '192.0.2.10', 'failure'],
      ['token-failures-client-address', 'token:form-client|192.0.2.10', 'failure'],
      ['token-client', 'token:form-client', 'success'],
    ]);
  });

  it('reads are GET and HEAD', () => {
    expect(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'].map((method) => byMethod({ method }))).toEqual([
      'read',
      'read',
      'write',
      'write',
      'write',
      'write',
    ]);
  });
});
