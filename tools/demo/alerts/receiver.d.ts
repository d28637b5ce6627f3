import type { ListenTarget } from '../listen';

export interface DemoReceiver {
  url: string;
  port: number;
  close(): Promise<void>;
  stats: { verified: number; duplicates: number; refused: number };
}

export function startReceiver(o: {
  port?: ListenTarget;
  host?: string;
  jwksUrl: string;
  issuer: string;
  apps: Map<string, string>;
  log?: (line: string) => void;
}): Promise<DemoReceiver>;
export const TOKEN_TYPE: string;
