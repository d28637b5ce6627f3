/**
 * The run's own PostgreSQL and Redis (tools/infra), kept restartable: a restart stops the server
 * and starts it again on the same data directory and port, as an operator's restart would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { log } from '../common/processes';

interface PostgresServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  pause(): void;
  resume(): void;
}

interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

type StartPostgres = (o: { dataDir: string; port?: number; durable?: boolean }) => Promise<PostgresServer>;
type StartRedis = (o: { dataDir?: string; port?: number }) => Promise<RedisServer>;

const DATABASE = 'edu_chaos';

export class ChaosPostgres {
  private constructor(
    private server: PostgresServer,
    private readonly dataDir: string,
    private readonly startPostgres: StartPostgres,
  ) {}

  /** Non-durable (fsync off): a fast shutdown writes everything anyway, and the machine is shared. */
  static async start(root: string): Promise<ChaosPostgres> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startPostgres } = require(path.join(root, 'tools', 'infra', 'postgres.js')) as {
      startPostgres: StartPostgres;
    };
    const dataDir = mkdtempSync(path.join(tmpdir(), 'edu-chaos-pg-'));
    const server = await startPostgres({ dataDir, durable: false });
    const admin = new Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    return new ChaosPostgres(server, dataDir, startPostgres);
  }

  /** The platform's database on this server. */
  get url(): string {
    const u = new URL(this.server.url);
    u.pathname = `/${DATABASE}`;
    return u.toString();
  }

  /** Fast shutdown (every session is cut), then the same data directory on the same port. */
  async restart(): Promise<number> {
    await this.server.stop();
    const stoppedAt = Date.now();
    this.server = await this.startPostgres({ dataDir: this.dataDir, port: this.server.port, durable: false });
    return stoppedAt;
  }

  pause(): void {
    this.server.pause();
  }

  resume(): void {
    this.server.resume();
  }

  async stop(): Promise<void> {
    await this.server.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export class ChaosRedis {
  private constructor(
    private server: RedisServer,
    private readonly dataDir: string,
    private readonly startRedis: StartRedis,
  ) {}

  /** With its append-only file (tools/infra/redis: appendfsync everysec), as deployed. */
  static async start(root: string): Promise<ChaosRedis> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startRedis } = require(path.join(root, 'tools', 'infra', 'redis.js')) as { startRedis: StartRedis };
    const dataDir = mkdtempSync(path.join(tmpdir(), 'edu-chaos-redis-'));
    return new ChaosRedis(await startRedis({ dataDir }), dataDir, startRedis);
  }

  get url(): string {
    return this.server.url;
  }

  /** Stop (the server writes its data), then the same data directory on the same port. */
  async restart(): Promise<void> {
    await this.server.stop();
    this.server = await this.startRedis({ dataDir: this.dataDir, port: this.server.port });
  }

  /** Every key gone at once: the queue's jobs, the rate-limit counters, the locks. */
  async flushAll(): Promise<void> {
    const client = new Redis(this.server.url, { maxRetriesPerRequest: 1 });
    try {
      await client.flushall();
    } finally {
      client.disconnect();
    }
    log('redis: FLUSHALL');
  }

  async stop(): Promise<void> {
    await this.server.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
