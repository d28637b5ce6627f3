import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { Test, type TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { PersistenceModule, WebhookDeliveriesRepository } from '@edu/persistence';
import { DeliveryQueue, QueueModule } from '@edu/queue';
import { createTestDatabase, testRedis, type TestDatabase } from '@edu/testing';
import { DeliveryEnqueuer } from '../src/delivery-store/delivery-enqueuer';
import { DeliveryStoreModule } from '../src/delivery-store/delivery-store.module';

/** A Redis that accepts connections and never answers, as a stuck one does. */
async function silentRedis(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('DeliveryEnqueuer (PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  const modules: TestingModule[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all(modules.map((m) => m.close()));
    await db?.drop();
  });

  /** The app's delivery store and queue, on this database and the Redis at `redisUrl`. */
  async function store(redisUrl: string, prefix: string) {
    const module = await Test.createTestingModule({
      imports: [
        PersistenceModule.forRoot({ url: db.url, poolSize: 2, applicationName: 'enqueuer-spec' }),
        QueueModule.forRoot({ redisUrl, prefix, maxRetries: 2 }),
        DeliveryStoreModule,
      ],
    }).compile();
    modules.push(module);
    const ds = module.get(DataSource);
    const repo = module.get(WebhookDeliveriesRepository);
    return {
      enqueuer: module.get(DeliveryEnqueuer),
      queue: module.get(DeliveryQueue),
      newDelivery: async (): Promise<string> =>
        (await repo.createTest(randomUUID(), randomUUID(), randomUUID(), 'full-payload')).id,
      enqueuedAt: async (id: string): Promise<Date | null> =>
        (await ds.query(`SELECT enqueued_at FROM webhook_deliveries WHERE id = $1`, [id]))[0].enqueued_at,
    };
  }

  it('queues the jobs and marks the deliveries queued', async () => {
    const redis = testRedis();
    const s = await store(redis.url, redis.prefix);
    const [a, b] = [await s.newDelivery(), await s.newDelivery()];
    await s.enqueuer.enqueue([
      { kind: 'first-attempt', deliveryId: a },
      { kind: 'test', deliveryId: b },
    ]);
    expect([await s.queue.state(a), await s.queue.state(b)]).toEqual(['waiting', 'waiting']);
    expect(await s.enqueuedAt(a)).toBeInstanceOf(Date);
    expect(await s.enqueuedAt(b)).toBeInstanceOf(Date);
  });

  it('leaves the deliveries to the outbox relay, unmarked, when Redis does not answer in time', async () => {
    const stuck = await silentRedis();
    try {
      const s = await store(stuck.url, '{stuck}');
      const id = await s.newDelivery();
      const started = Date.now();
      await expect(s.enqueuer.enqueue([{ kind: 'first-attempt', deliveryId: id }], 200)).resolves.toBeUndefined();
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(await s.enqueuedAt(id)).toBeNull();
    } finally {
      await stuck.close();
    }
  });
});
