import type { DemoSignInConfig } from './index';

export const DEFAULT_PORTS: { identity: number; upstream: number; partner: number };
export const CALLBACK_PATH: string;
export function demoSignInConfig(): DemoSignInConfig;
export function identitySignInEnv(
  upstreamUrl: string,
  env?: NodeJS.ProcessEnv,
  config?: DemoSignInConfig,
): Record<string, string>;
