export interface DemoSharingConfig {
  tenant_id: string;
  admin: { client_id: string; client_secret: string };
  app: { id: string; name: string };
  sharing: { mode: string; classes: string[]; withhold: string[] };
}

export function demoSharingConfig(): DemoSharingConfig;

export function shareDemoData(o: { identityUrl: string; config?: DemoSharingConfig }): Promise<'kept' | 'activated'>;
