import { createHmac } from 'node:crypto';
import { CookieSigner, cookieKeys } from './cookie-signer';

/** Keygrip's signature (its defaults, as koa's cookies used them): HMAC-SHA1 with the key's text, base64 made URL-safe. */
const keygripSign = (data: string, key: string) =>
  createHmac('sha1', key)
    .update(data)
    .digest('base64')
    .replace(/\/|\+|=/g, (x) => ({ '/': '_', '+': '-', '=': '' })[x] as string);

describe('cookie signer', () => {
  const keys = cookieKeys('a key-encryption key for the test');
  const data = 'signin_interaction=abc.def_-123';

  it('signs as Keygrip does, so cookies signed before verify', () => {
    const signer = new CookieSigner(keys);
    expect(signer.sign(data)).toBe(keygripSign(data, keys[0]));
    expect(signer.verify(data, keygripSign(data, keys[0]))).toBe(true);
  });

  it('finds the key that signed, and refuses anything else', () => {
    const old = cookieKeys('an older key');
    const signer = new CookieSigner([...keys, ...old]);
    expect(signer.index(data, keygripSign(data, old[0]))).toBe(1);
    const signature = signer.sign(data);
    expect(signer.verify(`${data}x`, signature)).toBe(false);
    expect(signer.verify(data, signature.slice(1))).toBe(false);
    expect(signer.verify(data, '')).toBe(false);
  });
});
