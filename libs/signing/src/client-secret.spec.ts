import { generateClientSecret, hashClientSecret, safeEqual, verifyClientSecret } from './client-secret';

describe('client secrets', () => {
  it('verifies the right secret only, with a salted hash that never contains the secret', () => {
    const secret = generateClientSecret();
    const hash = hashClientSecret(secret);
    expect(hash).not.toContain(secret);
    expect(hashClientSecret(secret)).not.toBe(hash); // salted
    expect(verifyClientSecret(secret, hash)).toBe(true);
    expect(verifyClientSecret(`${secret}x`, hash)).toBe(false);
    expect(verifyClientSecret(secret, 'garbage')).toBe(false);
  });

  it('compares strings of different lengths safely', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
