import type { ConnectionOptions } from 'bullmq';
import Redis from 'ioredis';

/** ioredis options from a redis:// or rediss:// URL, as BullMQ needs them. */
export function redisOptionsFromUrl(url: string): ConnectionOptions & { maxRetriesPerRequest: null } {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname && u.pathname !== '/' ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    // BullMQ workers block on Redis; they must retry forever instead of failing requests.
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
  };
}

/**
 * Readiness probe client: fails fast (no offline queue, one retry) so a Redis outage shows up
 * as "not ready" instead of a request that hangs.
 */
export class RedisPing {
  private readonly client: Redis;

  constructor(url: string) {
    this.client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    this.client.on('error', () => undefined); // reported through ping() failures
  }

  async ping(): Promise<void> {
    if (this.client.status !== 'ready') await this.connected();
    const answer = await this.client.ping();
    if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
  }

  private connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (err?: Error) => {
        this.client.off('ready', onReady);
        this.client.off('error', onError);
        if (err) reject(err);
        else resolve();
      };
      const onReady = () => done();
      const onError = (err: Error) => done(err);
      this.client.once('ready', onReady);
      this.client.once('error', onError);
    });
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
