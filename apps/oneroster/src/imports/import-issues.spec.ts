import { closest, editDistance, IssueLog } from './import-issues';

describe('import issues', () => {
  it('count errors beyond the listed cap', () => {
    const log = new IssueLog(2);
    for (let i = 0; i < 3; i++) log.error('users.csv', i + 2, 'role', 'bad');
    expect(log.errors).toHaveLength(2);
    expect(log.errorCount).toBe(3);
    expect(log.full).toBe(true);
    expect(log.failed).toBe(true);
  });

  it('suggest close names only', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closest('fiel.users', ['file.users', 'file.orgs'])).toBe('file.users');
    expect(closest('stateofBirthAbbreviation', ['stateOfBirthAbbreviation'])).toBe('stateOfBirthAbbreviation');
    expect(closest('nickName', ['givenName', 'familyName'])).toBeUndefined();
  });
});
