import type { ListenTarget } from '../listen';
import type { DemoSignInConfig } from './index';

export function startDemoUpstream(o: {
  port: ListenTarget;
  host?: string;
  issuer: string;
  identityUrl: string;
  config?: DemoSignInConfig;
}): Promise<{ issuer: string; port: number; close(): Promise<void> }>;
