import { PortalKeys } from './portal-keys';

describe('PortalKeys', () => {
  const keys = new PortalKeys('a-key-encryption-key-of-at-least-32-characters');
  const link = { sessionId: '7d0c6f0e-1c1b-4c2a-9d55-1f0c2b3a4d5e', expiresAt: Date.now() + 60_000 };

  it('verifies what it signed, until it expires', () => {
    const token = keys.sign(link);
    expect(keys.verify(token)).toEqual(link);
    expect(keys.verify(token, link.expiresAt)).toBeUndefined();
  });

  it('refuses a token changed in any way, or signed with another key', () => {
    const token = keys.sign(link);
    const [payload, signature] = token.split('.');
    const other = Buffer.from(JSON.stringify({ s: link.sessionId, e: link.expiresAt + 3_600_000 })).toString(
      'base64url',
    );
    for (const bad of [
      `${other}.${signature}`,
      `${payload}.${signature.slice(0, -2)}xx`,
      `${payload}`,
      `${payload}.${signature}.x`,
      '',
      new PortalKeys('another-key-encryption-key-of-32-chars-or-more').sign(link),
    ])
      expect(keys.verify(bad)).toBeUndefined();
  });

  it('stores session secrets hashed and derives CSRF tokens per session', () => {
    const { secret, hash } = keys.sessionSecret();
    expect(hash).not.toContain(secret);
    expect(PortalKeys.matches(secret, hash)).toBe(true);
    expect(PortalKeys.matches(`${secret}x`, hash)).toBe(false);
    expect(keys.csrfMatches(link.sessionId, keys.csrf(link.sessionId))).toBe(true);
    expect(keys.csrfMatches('another', keys.csrf(link.sessionId))).toBe(false);
    expect(keys.csrfMatches(link.sessionId, undefined)).toBe(false);
  });
});
