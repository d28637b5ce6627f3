import { selectFields } from './select-fields';

describe('selectFields', () => {
  const user = {
    sourcedId: 'u-1',
    status: 'active',
    givenName: 'Jane',
    familyName: 'Doe',
    email: undefined as string | undefined,
  };

  it('returns the object itself when no selection is given', () => {
    expect(selectFields(user, undefined)).toBe(user);
  });

  it('keeps only the listed properties, in the listed order', () => {
    const selected = selectFields(user, ['familyName', 'sourcedId']);
    expect(selected).toEqual({ familyName: 'Doe', sourcedId: 'u-1' });
    expect(Object.keys(selected)).toEqual(['familyName', 'sourcedId']);
  });

  it('leaves absent or undefined properties out rather than emitting them empty', () => {
    expect(selectFields(user, ['email', 'middleName', 'givenName'])).toEqual({ givenName: 'Jane' });
    expect('email' in selectFields(user, ['email'])).toBe(false);
  });

  it('ignores inherited properties', () => {
    expect(selectFields(user, ['toString', 'constructor'])).toEqual({});
  });

  it('returns an empty object for an empty selection and does not mutate the input', () => {
    expect(selectFields(user, [])).toEqual({});
    expect(user.givenName).toBe('Jane');
  });
});
