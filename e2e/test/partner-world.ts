import type { DataSource } from 'typeorm';
import { createDataSource } from '@edu/persistence';
import { createTestDatabase, World, type TestDatabase } from '@edu/testing';
import { buildServices } from './processes';

/** Webhook settings that let the services deliver to a receiver on this machine over plain HTTP. */
export const LOCAL_WEBHOOKS = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_ALLOWED_PORTS: '*',
} as const;

export interface PartnerWorld {
  db: TestDatabase;
  ds: DataSource;
  /** The partner app's client credentials and where it is deployed. */
  creds: { id: string; secret: string; tenantId: string; appId: string };
  /** Closes the DataSource and drops the database (after the services are stopped). */
  stop(): Promise<void>;
}

/**
 * Where a system test that plays a partner starts: the services compiled, and a fresh database
 * holding a tenant and a developer's app deployed there with `scopes`.
 */
export async function partnerWorld(
  scopes: string[],
  o: { appName?: string; tenant?: Parameters<World['tenant']>[0] } = {},
): Promise<PartnerWorld> {
  buildServices();
  const db = await createTestDatabase();
  const ds = createDataSource({ url: db.url });
  const stop = async () => {
    if (ds.isInitialized) await ds.destroy();
    await db.drop();
  };
  try {
    await ds.initialize();
    const world = new World(ds);
    const tenant = await world.tenant(o.tenant);
    const dev = await world.developer();
    const app = await world.app({ type: 'developer', id: dev.id }, o.appName);
    await world.deploy(app.app.id, tenant.id, scopes);
    return {
      db,
      ds,
      creds: { id: app.clientId, secret: app.clientSecret, tenantId: tenant.id, appId: app.app.id },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
