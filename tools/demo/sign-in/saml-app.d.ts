export const DEMO_SAML_APP_ID: string;
export function pointSamlAppAt(o: {
  identityUrl: string;
  spUrl: string;
  operator: { id: string; secret: string };
  appId?: string;
}): Promise<{ action: 'kept' | 'moved'; name: string }>;
