import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { deflateRawSync } from 'node:zlib';

// One request of each route group, as a newcomer's first calls after `npm start` make them, built
// on the demo data set (tools/provision/demo.json).

export const DEMO = {
  district: '9b8e7d6c-5a4f-4321-8fed-cba987654302',
  harbourView: '6f1c2a9e-3b4d-4e8a-9c11-2a7b5e0d4f01',
  rosterSync: { id: 'demo-roster-sync', secret: 'demo-roster-sync-secret-not-for-production' },
  pulse: { id: 'demo-wellbeing-pulse', secret: 'demo-wellbeing-pulse-secret-not-for-production' },
  pulseCallback: 'http://localhost:3012/auth/callback',
  library: {
    entityId: 'https://library.lioncity.edu.example/saml',
    acs: 'https://library.lioncity.edu.example/saml/acs',
  },
  lti: {
    providerId: 'f6a7b8c9-d0e1-4f2a-9b4c-5d6e7f8a9b10',
    issuer: 'https://lms.harbourview.edu.example',
    clientId: 'harbourview-lti',
    deploymentId: 'hv-deployment-1',
  },
} as const;

export interface FirstAnswer {
  group: string;
  status: number;
  ms: number;
  contentType: string;
  retryAfter: string | null;
  text: string;
}

/** One request, timed; redirects are answers (a browser would follow them), never followed here. */
export async function firstCall(group: string, url: string, init: RequestInit = {}): Promise<FirstAnswer> {
  const started = performance.now();
  const res = await fetch(url, { redirect: 'manual', ...init });
  const text = await res.text();
  return {
    group,
    status: res.status,
    ms: Math.round(performance.now() - started),
    contentType: res.headers.get('content-type') ?? '',
    retryAfter: res.headers.get('retry-after'),
    text,
  };
}

const basic = (c: { id: string; secret: string }) => `Basic ${Buffer.from(`${c.id}:${c.secret}`).toString('base64')}`;

/** A client-credentials token request (the banner's first `curl`). */
export function tokenRequest(client: { id: string; secret: string }, tenantId: string): RequestInit {
  return {
    method: 'POST',
    headers: { Authorization: basic(client), 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', tenant_id: tenantId }),
  };
}

/** The partner app's sign-in link: the authorization endpoint with PKCE. */
export function oidcAuthUrl(identity: string): string {
  const verifier = randomBytes(32).toString('base64url');
  const q = new URLSearchParams({
    client_id: DEMO.pulse.id,
    redirect_uri: DEMO.pulseCallback,
    response_type: 'code',
    scope: 'openid email',
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  return `${identity}/oidc/auth?${q}`;
}

/** The demo library app's AuthnRequest, HTTP-Redirect binding (unsigned, as its metadata allows). */
export function samlSsoUrl(identity: string): string {
  const sso = `${identity}/saml/${DEMO.district}/sso`;
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
    ` ID="_${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${sso}"` +
    ` AssertionConsumerServiceURL="${DEMO.library.acs}" ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST">` +
    `<saml:Issuer>${DEMO.library.entityId}</saml:Issuer></samlp:AuthnRequest>`;
  return `${sso}?${new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.from(xml)).toString('base64') })}`;
}

/** The school LMS's LTI 1.3 login initiation. */
export function ltiLoginUrl(identity: string): string {
  const q = new URLSearchParams({
    iss: DEMO.lti.issuer,
    login_hint: 'student-1',
    target_link_uri: 'https://pulse.brightpath.example/launch',
    client_id: DEMO.lti.clientId,
    lti_deployment_id: DEMO.lti.deploymentId,
  });
  return `${identity}/signin/lti/${DEMO.lti.providerId}/login?${q}`;
}

/** The sign-in requests of every group to identity, sent at once. */
export function identityFirstRequests(identity: string): Promise<FirstAnswer[]> {
  return Promise.all([
    firstCall('sign-in SAML', samlSsoUrl(identity)),
    firstCall('sign-in OIDC', oidcAuthUrl(identity)),
    firstCall('sign-in LTI', ltiLoginUrl(identity)),
    firstCall('portal', `${identity}/signin/schools/${DEMO.district}/apps`),
    firstCall('token', `${identity}/oauth/token`, tokenRequest(DEMO.rosterSync, DEMO.district)),
  ]);
}

/** A OneRoster read and a gradebook write (v1.2 category PUT) with the roster partner's token, sent at once. */
export function onerosterFirstRequests(oneroster: string, token: string): Promise<FirstAnswer[]> {
  const auth = { Authorization: `Bearer ${token}` };
  return Promise.all([
    firstCall('reads', `${oneroster}/ims/oneroster/v1p1/orgs`, { headers: auth }),
    firstCall('writes', `${oneroster}/ims/oneroster/gradebook/v1p2/categories/first-request-${Date.now()}`, {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ category: { title: 'First request' } }),
    }),
  ]);
}

/** An alerts write: the wellbeing app registers its webhook. */
export function alertsFirstRequest(alerts: string, token: string): Promise<FirstAnswer> {
  return firstCall('alerts', `${alerts}/v2/alerts/webhook`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ endpoint: 'https://hooks.partner.example/alerts', type: 'notification-only' }),
  });
}

/**
 * `count` token requests whose bodies never finish (each on its own connection): in flight at the
 * service, as a slow client's are, until `release()` drops them.
 */
export function heldRequests(identity: string, count: number): { release(): void } {
  const held = Array.from({ length: count }, () => {
    const req = request(`${identity}/oauth/token`, {
      method: 'POST',
      agent: false,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '1000' },
    });
    req.on('error', () => undefined);
    req.write('grant_type=');
    return req;
  });
  return { release: () => held.forEach((req) => req.destroy()) };
}

/** The service's `http_requests_in_flight` gauge. */
export async function inFlight(service: string): Promise<number> {
  const metrics = await (await fetch(`${service}/metrics`)).text();
  return Number(/^http_requests_in_flight (\d+)$/m.exec(metrics)?.[1] ?? 0);
}
