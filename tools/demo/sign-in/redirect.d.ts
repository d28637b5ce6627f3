export function ensureRedirectUri(o: {
  identityUrl: string;
  appId: string;
  redirectUri: string;
  operator: { id: string; secret: string };
}): Promise<'kept' | 'added'>;
