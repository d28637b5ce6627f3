export interface DemoAlertsConfig {
  tenant: { id: string; name: string };
  app: { id: string; name: string; clientId: string; clientSecret: string };
  webhooks: { type: 'notification-only' | 'full-payload'; path: string }[];
  /** Every app of the demo data set, by id: the audiences the demo receiver accepts. */
  knownApps: Map<string, string>;
}

export interface LocalPlatform {
  identityUrl: string;
  alertsUrl: string;
  receiverPort: number;
  receiverUrl: string;
  databaseUrl: string;
  operator: { id: string; secret: string };
}

export function demoAlertsConfig(): DemoAlertsConfig;
export function localPlatform(env?: NodeJS.ProcessEnv): LocalPlatform;
export const DEFAULT_PORTS: { identity: number; alerts: number; receiver: number; postgres: number };
export const DATABASE_NAME: string;
export const DEMO_OPERATOR: { id: string; secret: string };
