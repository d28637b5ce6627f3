/** The names of the rows a request remembers (request-reads.ts): one per read, shared by its batched readers. */
export const READ_KEYS = {
  app: (clientId: string) => `app:${clientId}`,
  deployment: (appId: string, tenantId: string) => `deployment:${appId}:${tenantId}`,
  tenant: (id: string) => `tenant:${id}`,
  vanity: (domain: string) => `vanity:${domain}`,
  brand: (domain: string) => `brand:${domain}`,
  providersInUse: (tenantId: string) => `providers:${tenantId}`,
  ownProviders: (tenantId: string) => `own-providers:${tenantId}`,
  member: (tenantId: string, userId: string) => `member:${tenantId}:${userId}`,
  allowedProviders: (tenantId: string, constituencies: string[]) =>
    `allowed:${tenantId}:${[...constituencies].sort().join(',')}`,
  grant: (grantId: string) => `grant:${grantId}`,
  sharingVersion: (tenantId: string) => `sharing-version:${tenantId}`,
  oidc: (kind: string, id: string) => `oidc:${kind}:${id}`,
  oidcByUid: (kind: string, uid: string) => `oidc-uid:${kind}:${uid}`,
} as const;
