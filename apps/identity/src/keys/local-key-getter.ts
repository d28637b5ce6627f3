import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import type { SigningKeyStore } from '@edu/signing';

/**
 * Verification keys for the identity service's own protected routes: the published keys,
 * read from the database and refreshed periodically or when an unknown kid shows up.
 */
export function localKeyGetter(store: SigningKeyStore, refreshMs = 60_000): JWTVerifyGetKey {
  let current: { getKey: JWTVerifyGetKey; at: number } | undefined;
  const load = async () => {
    current = { getKey: createLocalJWKSet({ keys: await store.publishedKeys() }), at: Date.now() };
    return current.getKey;
  };
  return async (header, token) => {
    const getKey = current && Date.now() - current.at < refreshMs ? current.getKey : await load();
    try {
      return await getKey(header, token);
    } catch (err) {
      // A key created since the last load (rotation, another replica): reload once.
      if (current && Date.now() - current.at > 1_000) return (await load())(header, token);
      throw err;
    }
  };
}
