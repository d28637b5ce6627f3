/**
 * The soak's own partner apps, loaded into the running stack with the provisioning file format
 * (idempotent: a second run changes nothing): a grade-sync client with the gradebook scopes and a
 * runaway sync client whose read budget the operator lowered (`rate_limit_read`), both deployed at
 * the demo district. The other partners are the demo data set's.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** Lion City Schools District, the demo district (tools/provision/demo.json). */
export const DISTRICT = '9b8e7d6c-5a4f-4321-8fed-cba987654302';
const OR = 'https://purl.imsglobal.org/spec/or/v1p1/scope';
const DEVELOPER = 'f0a1b2c3-d4e5-4f60-8a7b-9c0d1e2f3a51';

export interface Credentials {
  readonly id: string;
  readonly secret: string;
  /** Ask for a tenant-context token at this tenant. */
  readonly tenantId?: string;
}

/** Demo data set clients (public demo values, refused in production). */
export const ROSTER_SYNC: Credentials = {
  id: 'demo-roster-sync',
  secret: 'demo-roster-sync-secret-not-for-production',
  tenantId: DISTRICT,
};
export const WELLBEING: Credentials = {
  id: 'demo-wellbeing-pulse',
  secret: 'demo-wellbeing-pulse-secret-not-for-production',
  tenantId: DISTRICT,
};
/** Harbour View's per-deployment OneRoster key: a stock client, no tenant_id. */
export const HARBOUR_VIEW: Credentials = {
  id: 'demo-harbourview-oneroster',
  secret: 'demo-harbourview-oneroster-secret-not-for-production',
};
export const GRADE_SYNC: Credentials = {
  id: 'soak-grade-sync',
  secret: 'soak-grade-sync-secret-not-for-production',
  tenantId: DISTRICT,
};
export const RUNAWAY: Credentials = {
  id: 'soak-runaway-sync',
  secret: 'soak-runaway-sync-secret-not-for-production',
  tenantId: DISTRICT,
};
/** The runaway client's read budget per window, set by the operator. */
export const RUNAWAY_READ_QUOTA = 60;

function app(id: string, name: string, client: Credentials) {
  return {
    id,
    name,
    owner: { type: 'developer', id: DEVELOPER },
    auth_type: 'oauth2',
    oauth2: { redirect_uris: ['https://soak.example/callback'] },
    client_id: client.id,
    client_secret: client.secret,
  };
}

function provisioningFile() {
  const gradeSync = 'f0a1b2c3-d4e5-4f60-8a7b-9c0d1e2f3a52';
  const runaway = 'f0a1b2c3-d4e5-4f60-8a7b-9c0d1e2f3a53';
  return {
    developers: [{ id: DEVELOPER, name: 'Soak Test Partners', email: 'soak@partners.example' }],
    apps: [app(gradeSync, 'Soak Grade Sync', GRADE_SYNC), app(runaway, 'Soak Runaway Sync', RUNAWAY)],
    deployments: [
      {
        tenant_id: DISTRICT,
        app_id: gradeSync,
        scope: ['roster-core.readonly', 'gradebook.readonly', 'gradebook.createput', 'gradebook.delete'].map(
          (s) => `${OR}/${s}`,
        ),
      },
      {
        tenant_id: DISTRICT,
        app_id: runaway,
        scope: [`${OR}/roster-core.readonly`],
        settings: { rate_limit_read: RUNAWAY_READ_QUOTA },
      },
    ],
  };
}

/** Loads the soak's partners with the provisioning CLI (compiled, like `npm run provision`). */
export function provisionPartners(root: string, databaseUrl: string): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'edu-soak-'));
  try {
    const file = path.join(dir, 'soak-partners.json');
    writeFileSync(file, JSON.stringify(provisioningFile(), null, 2));
    execFileSync(
      process.execPath,
      [path.join(root, 'tools/runtime/run-dist.js'), 'apps/identity/src/provisioning/cli', file],
      {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
