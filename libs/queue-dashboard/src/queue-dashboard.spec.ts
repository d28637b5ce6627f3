import { credentialsMatch, parseBasicAuth } from './queue-dashboard';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('queue dashboard HTTP Basic gate', () => {
  it('decodes user and password at the first colon (a password may hold colons and UTF-8)', () => {
    expect(parseBasicAuth(`Basic ${b64('operator:pa:ss wörd')}`)).toEqual({
      username: 'operator',
      password: 'pa:ss wörd',
    });
    expect(parseBasicAuth(`basic   ${b64('ops:')}`)).toEqual({ username: 'ops', password: '' });
  });

  it('reads nothing from other schemes or malformed values', () => {
    for (const header of [undefined, '', 'Bearer abc', `Basic ${b64('no-colon')}`, 'Basic', 'Basic a b', 'Basic !!!']) {
      expect(parseBasicAuth(header)).toBeUndefined();
    }
  });

  it('matches only when both parts are equal', () => {
    const expected = { username: 'operator', password: 'a-long-operator-secret' };
    expect(credentialsMatch({ ...expected }, expected)).toBe(true);
    expect(credentialsMatch({ username: 'operator', password: 'a-long-operator-secreT' }, expected)).toBe(false);
    expect(credentialsMatch({ username: 'Operator', password: expected.password }, expected)).toBe(false);
    expect(credentialsMatch({ username: 'operator', password: '' }, expected)).toBe(false);
    expect(credentialsMatch(undefined, expected)).toBe(false);
    // An empty expectation is never met by absent credentials.
    expect(credentialsMatch(undefined, { username: '', password: '' })).toBe(false);
  });
});
