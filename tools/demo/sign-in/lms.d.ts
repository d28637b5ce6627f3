import type { ListenTarget } from '../listen';

export interface DemoLmsConfig {
  client_id: string;
  deployment_id: string;
  course: string;
  activity: string;
  people: { sub: string; email: string; name: string; role: string; note: string }[];
}

export function demoLmsConfig(): DemoLmsConfig;
export function ltiSettingsFor(lmsUrl: string, config?: DemoLmsConfig): Record<string, unknown>;
export function startDemoLms(o?: {
  port?: ListenTarget;
  host?: string;
  issuer?: string;
}): Promise<{ issuer: string; port: number; stop(): Promise<void> }>;
