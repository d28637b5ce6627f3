import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { sharingLimitedDeliveries, type ReplayFilter } from '@edu/persistence';
import { SharedPeople, SharingReader, SharingScopes, type ActiveSharing } from '@edu/sharing';
import { AlertSharing } from './alert-sharing';
import { AlertSharingRepository } from './alert-sharing.repository';

/**
 * The undeliverable deliveries of a replay window whose message the app's data sharing, as it is
 * now, does not share (a person it names is not shared): the replay skips them, as the redeliver
 * endpoint refuses them. Only deliveries to apps whose sharing limits what they see are checked.
 */
export async function notSharedNow(ds: DataSource, filter: ReplayFilter): Promise<string[]> {
  const candidates = await sharingLimitedDeliveries(ds, filter);
  if (candidates.length === 0) return [];
  // The DataSource's own pg pool (TypeORM's postgres driver keeps it as `master`): one pool per command.
  const pool = (ds.driver as unknown as { master: Pool }).master;
  const sharing = new AlertSharing(
    new SharingReader(pool),
    new SharingScopes(pool),
    new SharedPeople(pool),
    new AlertSharingRepository(ds),
  );
  const ofApp = new Map<string, Promise<ActiveSharing>>();
  const skipped: string[] = [];
  for (const d of candidates) {
    const key = `${d.tenant_id}|${d.app_id}`;
    if (!ofApp.has(key)) ofApp.set(key, sharing.ofApp(d.tenant_id, d.app_id));
    const active = await (ofApp.get(key) as Promise<ActiveSharing>);
    if (!(await sharing.sharesMessage(d.tenant_id, active, d.message_id as string))) skipped.push(d.id);
  }
  return skipped;
}
