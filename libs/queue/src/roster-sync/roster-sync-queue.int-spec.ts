import { randomUUID } from 'node:crypto';
import type { RosterSyncJob } from './roster-sync-jobs';
import { RosterSyncQueue } from './roster-sync-queue';
import { RosterSyncWorker, type RosterSyncSettlement } from './roster-sync-worker';

/** Polls until `check` holds (no fixed sleeps). */
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('roster sync queue (real Redis)', () => {
  const redisUrl = process.env.REDIS_URL as string;
  const prefix = `{rs-test-${randomUUID().slice(0, 8)}}`;
  let queue: RosterSyncQueue;
  let worker: RosterSyncWorker;
  const seen: Array<{ job: RosterSyncJob; attempts: number }> = [];
  let answer: (job: RosterSyncJob) => RosterSyncSettlement | Promise<RosterSyncSettlement> = () => ({ kind: 'done' });

  beforeAll(() => {
    queue = new RosterSyncQueue({ redisUrl, prefix });
    worker = new RosterSyncWorker(
      { redisUrl, prefix, concurrency: 2, lockDurationMs: 5_000 },
      async (job, attempts) => {
        seen.push({ job, attempts });
        return answer(job);
      },
    );
    void worker.run();
  });

  afterAll(async () => {
    await worker.close();
    await queue.close();
  });

  beforeEach(() => {
    seen.length = 0;
    answer = () => ({ kind: 'done' });
  });

  it('runs a sync job once however often it is queued while it waits', async () => {
    const syncId = randomUUID();
    await Promise.all([0, 1, 2].map(() => queue.enqueueSync({ syncId, tenantId: 't1' })));
    await until(() => seen.length >= 1);
    await until(async () => (await queue.syncJobState(syncId)) === 'completed');
    expect(seen.filter((s) => s.job.kind === 'sync' && s.job.syncId === syncId)).toHaveLength(1);
  });

  it('runs a sync again when it is queued after its job finished (an approval)', async () => {
    const syncId = randomUUID();
    await queue.enqueueSync({ syncId, tenantId: 't1' });
    await until(async () => (await queue.syncJobState(syncId)) === 'completed');
    await queue.enqueueSync({ syncId, tenantId: 't1' });
    await until(() => seen.filter((s) => s.job.kind === 'sync' && s.job.syncId === syncId).length === 2);
  });

  it('runs an approved sync even while the job that held it is still finishing', async () => {
    const syncId = randomUUID();
    let release: () => void = () => undefined;
    const finishing = new Promise<RosterSyncSettlement>((r) => (release = () => r({ kind: 'done' })));
    const runs = () => seen.filter((s) => s.job.kind === 'sync' && s.job.syncId === syncId);
    // The first run (the one that holds the sync) stays active until the approval is queued.
    answer = (job) => (job.kind === 'sync' && job.syncId === syncId && !job.approved ? finishing : { kind: 'done' });
    await queue.enqueueSync({ syncId, tenantId: 't1' });
    await until(() => runs().length === 1);
    expect(await queue.syncJobState(syncId)).toBe('active');
    await queue.enqueueSync({ syncId, tenantId: 't1', approved: true });
    release();
    await until(() => runs().some((s) => s.job.kind === 'sync' && s.job.approved === true));
    await until(async () => (await queue.syncJobState(syncId)) === 'completed');
  });

  it('puts a postponed job back and runs it again', async () => {
    const syncId = randomUUID();
    let first = true;
    answer = () => {
      if (!first) return { kind: 'done' };
      first = false;
      return { kind: 'postpone', ms: 50 };
    };
    await queue.enqueueSync({ syncId, tenantId: 't1' });
    await until(() => seen.filter((s) => s.job.kind === 'sync' && s.job.syncId === syncId).length === 2);
  });

  it('schedules a source (an interval fires at once, then on its period), lists and removes it', async () => {
    const sourceId = randomUUID();
    await queue.schedule(sourceId, 't2', { interval_minutes: 60 });
    await until(() => seen.some((s) => s.job.kind === 'scheduled' && s.job.sourceId === sourceId));
    expect(await queue.scheduledSources()).toContain(sourceId);
    await queue.schedule(sourceId, 't2', { cron: '0 3 * * *', timezone: 'Asia/Singapore' });
    expect(await queue.scheduledSources()).toContain(sourceId);
    await queue.schedule(sourceId, 't2', null);
    expect(await queue.scheduledSources()).not.toContain(sourceId);
  });

  it('schedules a retry of a failed announcement (its backoff starts at 10 s)', async () => {
    const syncId = randomUUID();
    answer = (job) => {
      if (job.kind === 'notify') throw new Error('the endpoint is down');
      return { kind: 'done' };
    };
    await queue.enqueueNotify({ syncId, tenantId: 't3' });
    await until(() => seen.some((s) => s.job.kind === 'notify' && s.job.syncId === syncId));
    await until(async () => (await queue.jobState({ kind: 'notify', syncId, tenantId: 't3' })) === 'delayed');
  });
});
