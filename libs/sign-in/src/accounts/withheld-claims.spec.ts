import { NOTHING_WITHHELD, withheldPerson } from '@edu/sharing';
import { withheldClaims, withoutWithheld } from './withheld-claims';

describe('claims a data sharing withholds', () => {
  const claims = { sub: 's', name: 'Ada', nickname: 'Ada L', email: 'ada@school.example', email_verified: true };

  it('contact removes the address claims, preferred_names the nickname, from the library’s withheld user fields', () => {
    expect(withheldPerson(['contact'])).toEqual({ email: true, nickname: false, identifiers: false });
    expect([...withheldClaims(withheldPerson(['contact']))]).toEqual(['email', 'email_verified']);
    expect([...withheldClaims(withheldPerson(['preferred_names']))]).toEqual(['nickname']);
    expect(withoutWithheld(claims, withheldClaims(withheldPerson(['contact', 'preferred_names'])))).toEqual({
      sub: 's',
      name: 'Ada',
    });
  });

  it('identifiers, demographics and birth dates remove no sign-in claim; nothing withheld keeps every claim', () => {
    expect(withheldPerson(['identifiers'])).toEqual({ email: false, nickname: false, identifiers: true });
    expect(withheldClaims(withheldPerson(['identifiers', 'demographics', 'birth_date'])).size).toBe(0);
    expect(withheldPerson([])).toBe(NOTHING_WITHHELD);
    expect(withoutWithheld(claims, withheldClaims(NOTHING_WITHHELD))).toBe(claims);
  });
});
