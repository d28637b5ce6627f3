import type { Request } from 'express';
import type { Principal } from '@edu/domain';
import { ADDRESS_GROUPS, CLIENT_AUTH_GROUPS, type RouteGroup, type Subject } from './policies';

/** Which route group a request of this service belongs to (the service's routes, its rules). */
export type RouteClassifier = (req: Request) => RouteGroup;

/** Reads with GET or HEAD; anything else writes. */
export function byMethod(req: Pick<Request, 'method'>): 'read' | 'write' {
  return req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write';
}

/** RFC 6749 §2.3.1 form-urlencodes the id before Basic encoding; both token endpoints decode it. */
function formDecoded(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value; // malformed: the endpoint refuses it, the raw text is a key like any other
  }
}

/**
 * The client id a token request names (RFC 6749 §2.3.1: HTTP Basic, else the `client_id` form
 * field), before it is authenticated: only a partition key, never trusted for anything else.
 * Decoded as the endpoints decode it, so spelling one id differently (`%61pp`) names the same budgets.
 */
export function tokenRequestClientId(req: Pick<Request, 'headers' | 'body'>): string | undefined {
  const header = req.headers.authorization;
  const basic = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)?.[1] : undefined;
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return formDecoded(decoded.slice(0, colon));
  }
  const form = req.body as Record<string, unknown> | undefined;
  return typeof form?.client_id === 'string' && form.client_id !== '' ? form.client_id : undefined;
}

/**
 * Who spends the budgets of a request. Authenticated callers by their token: a tenant-context
 * token's client budget is its deployment (an app's traffic at one tenant), other tokens' their
 * client id. Requests where a client authenticates with its secret (token, introspection,
 * revocation) by the client id they name and the source address; requests without a token
 * (JWKS, discovery) by source address. The address is Express' `req.ip`: the connection's peer
 * unless TRUST_PROXY names the proxy, so a spoofed X-Forwarded-For changes nothing.
 */
export function subjectOf(req: Request, group: RouteGroup, principal: Principal | undefined): Subject {
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  if (CLIENT_AUTH_GROUPS.has(group)) return { group, address, client: `token:${tokenRequestClientId(req) ?? ''}` };
  if (ADDRESS_GROUPS.has(group)) return { group, address };
  if (!principal) return { group: 'anonymous', address };
  if (principal.kind === 'tenant') {
    const deployment = principal.deploymentId;
    const client = deployment ? `deployment:${deployment}` : `client:${principal.clientId}@${principal.tenantId}`;
    return { group, address, client, tenant: `tenant:${principal.tenantId}`, deploymentId: deployment };
  }
  return { group, address, client: `client:${principal.clientId}` };
}
