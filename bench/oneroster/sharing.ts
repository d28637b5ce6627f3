/**
 * The data sharing scenarios' deployment: a second app at the tenant that the school shares a
 * slice of its classes with (contact withheld), as a maths app would get the maths classes. The
 * sharing is stored as the Identity API's activation stores it (canonical spec, hash, version).
 */
import { Client } from 'pg';
import { canonicalSpec, specHash, toSpec } from '@edu/sharing';
import { createDataSource } from '@edu/persistence';
import { deployBenchApp } from './apps';

/** Classes shared with the bench's class-shared deployment: about one maths department of a district. */
export const SHARED_CLASSES = 40;

export interface SharedDeployment {
  readonly appId: string;
  readonly deploymentId: string;
  readonly classes: string[];
}

/** Every `nClasses / SHARED_CLASSES`-th class, spread over the district's schools. */
function spreadClasses(nClasses: number, pad: (n: number) => string): string[] {
  const step = Math.max(1, Math.floor(nClasses / SHARED_CLASSES));
  return Array.from({ length: Math.min(SHARED_CLASSES, nClasses) }, (_, i) => `cls-${pad(i * step + 1)}`);
}

export async function deployClassShared(
  url: string,
  tenantId: string,
  scopes: string[],
  nClasses: number,
  pad: (n: number) => string,
): Promise<SharedDeployment> {
  const ds = createDataSource({ url, poolSize: 1, applicationName: 'bench-sharing' });
  await ds.initialize();
  let deployed: { appId: string; deploymentId: string };
  try {
    deployed = await deployBenchApp(ds, tenantId, 'Bench Maths App', scopes);
  } finally {
    await ds.destroy();
  }
  const classes = spreadClasses(nClasses, pad);
  const spec = canonicalSpec(toSpec({ mode: 'classes', classes, withhold: ['contact'] }));
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('BEGIN');
    await c.query(
      `INSERT INTO deployment_sharing (deployment_id, tenant_id, app_id, active, active_hash, activated_at)
       VALUES ($1, $2, $3, $4, $5, now())`,
      [deployed.deploymentId, tenantId, deployed.appId, JSON.stringify(spec), specHash(spec)],
    );
    await c.query(
      `INSERT INTO sharing_versions (tenant_id, version) VALUES ($1, 1)
       ON CONFLICT (tenant_id) DO UPDATE SET version = sharing_versions.version + 1`,
      [tenantId],
    );
    await c.query('COMMIT');
  } finally {
    await c.end();
  }
  return { ...deployed, classes };
}
