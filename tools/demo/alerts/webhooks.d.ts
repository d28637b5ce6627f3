import type { DemoAlertsConfig } from './config';

export interface DemoWebhook {
  webhook_id: string;
  type: string;
  endpoint: string;
  action: 'kept' | 'created' | 'moved';
}

export function registerDemoWebhooks(o: {
  identityUrl: string;
  alertsUrl: string;
  receiverUrl: string;
  config: DemoAlertsConfig;
}): Promise<DemoWebhook[]>;
