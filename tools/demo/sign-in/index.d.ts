// Types of the sign-in demo modules (plain JS under tools/, loaded by the e2e test at run time).
export interface DemoPerson {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  note?: string;
}

export interface DemoSignInConfig {
  app: { id: string; name: string; clientId: string; clientSecret: string; redirectUris: string[] };
  tenant: { id: string; name: string };
  upstreamClients: Record<string, { client_id: string; client_secret: string }>;
  schoolClient: { client_id: string; client_secret: string };
  schoolProvider: { id: string; clientId: string; admin: { id: string; secret: string } };
  people: DemoPerson[];
}
