export interface DemoRosterEventsConfig {
  app: { id: string; name: string; clientId: string; clientSecret: string };
  tenant: { id: string; name: string };
  path: string;
}
export function demoRosterEventsConfig(): DemoRosterEventsConfig;
export function registerRosterEventsWebhook(o: {
  identityUrl: string;
  alertsUrl: string;
  receiverUrl: string;
  config?: DemoRosterEventsConfig;
}): Promise<{ webhook_id: string; endpoint: string; action: 'kept' | 'moved' | 'created' }>;
