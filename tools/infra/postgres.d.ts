import type { ChildProcess } from 'node:child_process';

export interface PostgresServer {
  url: string;
  port: number;
  /** Fast shutdown; resolves when the server has exited. */
  stop(): Promise<void>;
  /** SIGSTOP the postmaster and its backends: a hung server (TCP still accepts). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  process: ChildProcess;
}

export function startPostgres(options: {
  dataDir: string;
  port?: number;
  durable?: boolean;
  /** Extra server settings, passed as `-c name=value` (e.g. `{ wal_level: 'logical' }`). */
  settings?: Record<string, string | number>;
  log?: (line: string) => void;
}): Promise<PostgresServer>;
