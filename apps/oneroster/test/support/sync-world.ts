/**
 * What the sync specs run against: a token endpoint for a source tenant's credentials (real ES256
 * tokens from the spec's issuer), a proxy in front of the OneRoster app that can misbehave as a
 * SIS does, the sync worker in-process, and full reads of a tenant's rostering collections.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { loadConfig } from '@edu/config';
import { baseTestEnv, type TestIssuer } from '@edu/testing';
import { RosterSyncWorkerEnv } from '../../src/sources/worker/worker.env';
import { RosterSyncWorkerModule } from '../../src/sources/worker/worker.module';
import type { RosterHarness, TenantSetup } from './harness';
import { call } from './sources';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** An OAuth client-credentials endpoint minting tokens of one deployment. */
export class TokenEndpoint {
  server!: Server;
  url = '';
  issued = 0;
  lifetimeSeconds = 300;
  /** The next token is one the OneRoster API refuses (another audience), as a revoked one would be. */
  spoilNext = false;

  constructor(
    private readonly issuer: TestIssuer,
    private readonly t: TenantSetup,
    readonly clientId: string,
    readonly clientSecret: string,
    private readonly scopes: string[],
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.answer(req, res));
    this.url = `${await listen(this.server)}/oauth/token`;
    return this;
  }

  stop(): Promise<void> {
    return close(this.server);
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [id, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':')
      .map(decodeURIComponent);
    for await (const _ of req);
    if (id !== this.clientId || secret !== this.clientSecret) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
      return;
    }
    this.issued++;
    const token = await this.issuer.mint({
      scopes: this.scopes,
      tenantId: this.t.tenantId,
      deploymentId: this.t.deploymentId,
      sub: this.t.appId,
      expiresInSeconds: this.lifetimeSeconds,
      ...(this.spoilNext ? { audience: 'https://elsewhere.example' } : {}),
    });
    this.spoilNext = false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: this.lifetimeSeconds }));
  }
}

/** How the proxy misbehaves. */
export type Fault = 'none' | '500' | 'hang' | 'bad-json' | '429-once' | 'pages-forever' | 'no-list';

/** A SIS stand-in: forwards to the OneRoster app, or misbehaves as told. */
export class FaultyProxy {
  server!: Server;
  url = '';
  fault: Fault = 'none';
  requests = 0;
  private throttled = false;

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.answer(req, res));
    this.url = await listen(this.server);
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return close(this.server);
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests++;
    switch (this.fault) {
      case '500':
        return void res.writeHead(500).end('oops');
      case 'hang':
        return; // never answers
      case 'bad-json':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"orgs": [');
      case 'no-list':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"statusInfoSet": []}');
      case 'pages-forever': {
        const n = this.requests;
        const orgs = Array.from({ length: 1000 }, (_, i) => ({
          sourcedId: `o-${n}-${i}`,
          status: 'active',
          name: 'x',
          type: 'school',
        }));
        return void res
          .writeHead(200, { 'content-type': 'application/json', link: `<${this.url}${req.url}&n=${n}>; rel="next"` })
          .end(JSON.stringify({ orgs }));
      }
      case '429-once':
        if (!this.throttled) {
          this.throttled = true;
          return void res.writeHead(429, { 'retry-after': '1' }).end();
        }
    }
    const upstream = await fetch(`${this.target}${req.url}`, {
      headers: { authorization: req.headers.authorization ?? '' },
    });
    const headers: Record<string, string> = {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
    };
    for (const h of ['x-total-count', 'link']) {
      const v = upstream.headers.get(h);
      if (v) headers[h] = v.replaceAll(this.target, this.url);
    }
    res.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
  }
}

/** The sync worker in this process, on the spec's database and the test Redis. */
export async function startWorker(h: RosterHarness, env: Record<string, string> = {}): Promise<INestApplication> {
  const config = loadConfig(
    RosterSyncWorkerEnv,
    baseTestEnv({
      DATABASE_URL: h.db.url,
      REDIS_URL: process.env.REDIS_URL,
      ROSTER_SOURCE_ALLOW_HTTP: 'true',
      ROSTER_SOURCE_ALLOW_PRIVATE_TARGETS: 'true',
      ROSTER_SOURCE_ALLOWED_PORTS: '*',
      ROSTER_SFTP_PORT: '0',
      ROSTER_SYNC_RETRY_BASE_MS: '50',
      ROSTER_SYNC_BUSY_RETRY_MS: '200',
      ...env,
    }),
  );
  const ref = await Test.createTestingModule({ imports: [RosterSyncWorkerModule.forRoot(config)] }).compile();
  const app = ref.createNestApplication({ bufferLogs: true });
  await app.init();
  return app;
}

/** Polls a sync until it is no longer queued or running. */
export async function syncOutcome(
  h: RosterHarness,
  token: string,
  tenantId: string,
  syncId: string,
  timeoutMs = 60_000,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a report read from JSON
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(h.app, 'get', `/admin/tenants/${tenantId}/roster-syncs/${syncId}`, token).expect(200);
    if (!['queued', 'running'].includes(res.body.sync.status)) return res.body.sync;
    if (Date.now() > deadline) throw new Error(`sync ${syncId} still ${res.body.sync.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const COLLECTIONS = ['orgs', 'academicSessions', 'courses', 'classes', 'users', 'enrollments', 'demographics'];

/** Every record of a tenant's rostering collections through the API, by sourcedId. */
export async function fullRead(
  h: RosterHarness,
  token: string,
  root: string,
  o: { withoutDates?: boolean } = {},
): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const c of COLLECTIONS) {
    const records: Array<Record<string, unknown>> = [];
    for (let offset = 0; ; offset += 1000) {
      const res = await h.get(`${root}/${c}?limit=1000&offset=${offset}`, token).expect(200);
      records.push(...res.body[c]);
      if (res.body[c].length < 1000) break;
    }
    out[c] = records
      .map((r) => (o.withoutDates ? { ...r, dateLastModified: undefined } : r))
      .sort((a, b) => String(a.sourcedId).localeCompare(String(b.sourcedId)));
  }
  return out;
}
