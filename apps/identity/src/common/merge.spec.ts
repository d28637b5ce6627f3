import { mergePatch } from './merge';

describe('mergePatch', () => {
  const VARIANTS = { key: 'auth_type', variants: { oauth2: 'oauth2', saml: 'saml' } };
  const current = { name: 'A', auth_type: 'oauth2', oauth2: { redirect_uris: ['https://a.example'] } };

  it('replaces top-level fields and ignores undefined ones', () => {
    expect(mergePatch(current, { name: 'B', auth_type: undefined }, VARIANTS)).toEqual({ ...current, name: 'B' });
  });

  it('drops the old variant\u2019s settings when the discriminator changes', () => {
    expect(mergePatch(current, { auth_type: 'saml', saml: { x: 1 } }, VARIANTS)).toEqual({
      name: 'A',
      auth_type: 'saml',
      saml: { x: 1 },
    });
    expect(mergePatch(current, { auth_type: 'saml' }, VARIANTS)).toEqual({ name: 'A', auth_type: 'saml' });
  });

  it('keeps both when the patch brings settings without changing the discriminator (so validation can refuse it)', () => {
    expect(mergePatch(current, { saml: { x: 1 } }, VARIANTS)).toEqual({ ...current, saml: { x: 1 } });
  });
});
