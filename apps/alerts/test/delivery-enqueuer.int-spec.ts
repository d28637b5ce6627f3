import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { Test, type TestingModule } from '@nestjs/testing';
import type { DataSource } from 'typeorm';
import { createDataSource, WebhookDeliveriesRepository } from '@edu/persistence';
import { DeliveryQueue, QueueModule } from '@edu/queue';
import { createTestDatabase, testRedis, type TestDatabase } from '@edu/testing';
import { DeliveryEnqueuer } from '../src/deliveries/delivery-enqueuer';

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
  let ds: DataSource;
  let repo: WebhookDeliveriesRepository;
  const modules: TestingModule[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url, poolSize: 2, applicationName: 'enqueuer-spec' });
    await ds.initialize();
    repo = new WebhookDeliveriesRepository(ds);
  });

  afterAll(async () => {
    await Promise.all(modules.map((m) => m.close()));
    await ds?.destroy();
    await db?.drop();
  });

  /** The app's DeliveryQueue on the Redis at `redisUrl`, and an enqueuer using it. */
  async function enqueuer(redisUrl: string, prefix: string): Promise<{ enqueuer: DeliveryEnqueuer; queue: DeliveryQueue }> {
    const module = await Test.createTestingModule({ imports: [QueueModule.forRoot({ redisUrl, prefix, maxRetries: 2 })] }).compile();
    modules.push(module);
    const queue = module.get(DeliveryQueue);
    return { enqueuer: new DeliveryEnqueuer(queue, repo), queue };
  }

  const testDelivery = async (): Promise<string> => (await repo.createTest(randomUUID(), randomUUID(), randomUUID(), 'full-payload')).id;
  const enqueuedAt = async (id: string): Promise<Date | null> => (await ds.query(`SELECT enqueued_at FROM webhook_deliveries WHERE id = $1`, [id]))[0].enqueued_at;

  it('queues the jobs and marks the deliveries queued', async () => {
    const redis = testRedis();
    const { enqueuer: e, queue } = await enqueuer(redis.url, redis.prefix);
    const [a, b] = [await testDelivery(), await testDelivery()];
    await e.enqueue([{ deliveryId: a }, { deliveryId: b, urgent: true }]);
    expect([await queue.state(a), await queue.state(b)]).toEqual(['waiting', 'waiting']);
    expect(await enqueuedAt(a)).toBeInstanceOf(Date);
    expect(await enqueuedAt(b)).toBeInstanceOf(Date);
  });

  it('leaves the deliveries to the outbox relay, unmarked, when Redis does not answer in time', async () => {
    const stuck = await silentRedis();
    const { enqueuer: e } = await enqueuer(stuck.url, '{stuck}');
    try {
      const id = await testDelivery();
      const started = Date.now();
      await expect(e.enqueue([{ deliveryId: id }], 200)).resolves.toBeUndefined();
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(await enqueuedAt(id)).toBeNull();
    } finally {
      await stuck.close();
    }
  });
});
