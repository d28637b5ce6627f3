import type { ChildProcess } from 'node:child_process';

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  process: ChildProcess;
}

export function startRedis(options?: {
  port?: number;
  dataDir?: string;
  log?: (line: string) => void;
}): Promise<RedisServer>;
export function ensureRedisServer(log?: (line: string) => void): string;
