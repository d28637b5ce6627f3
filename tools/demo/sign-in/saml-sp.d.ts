import type { ListenTarget } from '../listen';

export function spSettings(baseUrl: string): {
  entity_id: string;
  reply_url: string;
  sign_on_url: string;
  sign_out_url: string;
  metadata_url: string;
};
export function spMetadata(baseUrl: string): string;
export function startDemoSamlSp(o: {
  port: ListenTarget;
  host?: string;
  baseUrl: string;
  identityUrl: string;
  tenantId?: string;
  appName?: string;
}): Promise<{ url: string; close(): Promise<void> }>;
