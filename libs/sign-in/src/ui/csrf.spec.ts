import type { Request } from 'express';
import type { SignInEnv } from '../sign-in.env';
import { PortalCsrf, sameOrigin } from './csrf';

const req = (headers: Record<string, string>) =>
  ({ get: (name: string) => headers[name.toLowerCase()] }) as unknown as Request;
const HOST = { host: 'portal.school.example' };

describe('portal CSRF tokens', () => {
  const csrf = new PortalCsrf({ KEY_ENCRYPTION_KEY: 'k'.repeat(44) } as SignInEnv);

  it('accepts the token of the interaction, from this host', () => {
    expect(csrf.check(req({ ...HOST, origin: 'https://portal.school.example' }), 'uid-1', csrf.token('uid-1'))).toBe(
      true,
    );
    expect(
      csrf.check(req({ ...HOST, origin: 'null', 'sec-fetch-site': 'same-origin' }), 'uid-1', csrf.token('uid-1')),
    ).toBe(true);
    expect(csrf.check(req(HOST), 'uid-1', csrf.token('uid-1'))).toBe(true);
  });

  it('refuses another interaction’s token, a missing or altered one', () => {
    expect(csrf.check(req(HOST), 'uid-1', csrf.token('uid-2'))).toBe(false);
    expect(csrf.check(req(HOST), 'uid-1', undefined)).toBe(false);
    expect(csrf.check(req(HOST), 'uid-1', ['a'])).toBe(false);
    expect(csrf.check(req(HOST), 'uid-1', `${csrf.token('uid-1')}x`)).toBe(false);
  });

  it('refuses a form posted from another site even with the right token', () => {
    const token = csrf.token('uid-1');
    expect(csrf.check(req({ ...HOST, origin: 'https://evil.example' }), 'uid-1', token)).toBe(false);
    expect(csrf.check(req({ ...HOST, origin: 'null', 'sec-fetch-site': 'cross-site' }), 'uid-1', token)).toBe(false);
    expect(csrf.check(req({ ...HOST, 'sec-fetch-site': 'same-site' }), 'uid-1', token)).toBe(false);
    expect(sameOrigin(req({ ...HOST, origin: 'not a url' }))).toBe(false);
  });

  it('derives a different key from a different KEY_ENCRYPTION_KEY', () => {
    const other = new PortalCsrf({ KEY_ENCRYPTION_KEY: 'j'.repeat(44) } as SignInEnv);
    expect(other.token('uid-1')).not.toBe(csrf.token('uid-1'));
  });
});
