import { CROSS_FIELD_RULES, FileRules, ruleLookups, type CrossFieldRule, type RuleRefs } from './cross-field-rules';
import { FILE_LAYOUTS, ROSTER_FILE_TYPES, type V1p1FileType } from './csv-layout';
import { IssueLog } from './import-issues';
import { RowLayout } from './row-layout';

/** Org types and class schools as the reference index would keep them; users u1, u2. */
const refs: RuleRefs = {
  extra: (type, id) =>
    (
      ({ orgs: { d: 'district', s: 'school', blank: '' }, classes: { c1: 's' } }) as Record<
        string,
        Record<string, string>
      >
    )[type]?.[id],
  has: (type, id) => type === 'users' && ['u1', 'u2'].includes(id),
  isChecked: () => true,
  isAppOwned: (type, id) => type === 'lineItems' && id === 'li-app',
  scope: (type) => `in ${type}.csv`,
};

/** Runs a file type's rules on one row given by header name. */
function check(type: V1p1FileType, values: Record<string, unknown>, r: RuleRefs = refs) {
  const rl = new RowLayout(FILE_LAYOUTS[type], false);
  const row = rl.newRow().fill(null);
  for (const [header, value] of Object.entries(values)) row[rl.slotOf(header)] = value;
  const issues = new IssueLog();
  new FileRules(rl, r, issues).check(row, 7);
  return issues.errors.map((e) => `${e.file}:${e.line}:${e.column} ${e.message}`);
}

describe('cross-field rules', () => {
  it('resolve for every file type (each rule names columns its file stores)', () => {
    for (const type of ROSTER_FILE_TYPES)
      expect(() => new FileRules(new RowLayout(FILE_LAYOUTS[type], false), refs, new IssueLog())).not.toThrow();
    expect(Object.keys(CROSS_FIELD_RULES).sort()).toEqual([
      'academicSessions',
      'classes',
      'demographics',
      'enrollments',
      'lineItems',
      'results',
    ]);
  });

  it('academic sessions end on or after they start', () => {
    expect(check('academicSessions', { startDate: '2025-02-01', endDate: '2025-01-31' })).toEqual([
      'academicSessions.csv:7:endDate endDate 2025-01-31 is before startDate 2025-02-01',
    ]);
    expect(check('academicSessions', { startDate: '2025-02-01', endDate: '2025-02-01' })).toEqual([]);
    expect(check('academicSessions', { startDate: null, endDate: '2025-01-31' })).toEqual([]);
  });

  it("a class's school is an org of type school, when its type is known", () => {
    expect(check('classes', { schoolSourcedId: 'd' })).toEqual([
      "classes.csv:7:schoolSourcedId 'd' is an org of type district, not a school",
    ]);
    expect(check('classes', { schoolSourcedId: 's' })).toEqual([]);
    expect(check('classes', { schoolSourcedId: 'blank' })).toEqual([]);
    expect(check('classes', { schoolSourcedId: 'unknown' })).toEqual([]);
  });

  it("an enrollment's school is its class's, and it ends on or after it begins (both reported, in that order)", () => {
    expect(
      check('enrollments', {
        classSourcedId: 'c1',
        schoolSourcedId: 'd',
        beginDate: '2025-03-01',
        endDate: '2025-02-01',
      }),
    ).toEqual([
      "enrollments.csv:7:schoolSourcedId 'd' is not the school of class 'c1' (s)",
      'enrollments.csv:7:endDate endDate 2025-02-01 is before beginDate 2025-03-01',
    ]);
    expect(check('enrollments', { classSourcedId: 'c1', schoolSourcedId: 's' })).toEqual([]);
    expect(check('enrollments', { classSourcedId: 'c9', schoolSourcedId: 'd' })).toEqual([]);
  });

  it('line items: resultValueMin is not above resultValueMax', () => {
    expect(check('lineItems', { resultValueMin: 10, resultValueMax: 5 })).toEqual([
      'lineItems.csv:7:resultValueMin resultValueMin 10 is greater than resultValueMax 5',
    ]);
    expect(check('lineItems', { resultValueMin: 5, resultValueMax: 5 })).toEqual([]);
    expect(check('lineItems', { resultValueMin: 10, resultValueMax: null })).toEqual([]);
  });

  it('results need a score unless exempt or not submitted', () => {
    expect(check('results', { scoreStatus: 'fully graded', score: null })).toEqual([
      "results.csv:7:score score is required unless scoreStatus is exempt or not submitted (it is 'fully graded')",
    ]);
    expect(check('results', { scoreStatus: 'exempt', score: null })).toEqual([]);
    expect(check('results', { scoreStatus: 'not submitted', score: null })).toEqual([]);
    expect(check('results', { scoreStatus: 'fully graded', score: 0 })).toEqual([]);
    expect(check('results', { scoreStatus: null, score: null })).toEqual([]);
  });

  it('demographics describe users (unless users.csv could not be read)', () => {
    expect(check('demographics', { sourcedId: 'u9' })).toEqual([
      "demographics.csv:7:sourcedId 'u9' is not a known user sourcedId (looked in users.csv); demographics describe users",
    ]);
    expect(check('demographics', { sourcedId: 'u1' })).toEqual([]);
    expect(check('demographics', { sourcedId: 'u9' }, { ...refs, isChecked: () => false })).toEqual([]);
  });

  it('files without rules pass every row', () => {
    expect(check('users', { sourcedId: 'anything' })).toEqual([]);
  });

  it('name the types they look up, to load before the file', () => {
    expect(ruleLookups('demographics')).toEqual(['users']);
    expect(ruleLookups('enrollments')).toEqual(['classes']);
    expect(ruleLookups('classes')).toEqual(['orgs']);
    expect(ruleLookups('users')).toEqual([]);
  });

  it('take new rules as data: named columns resolved to slots once', () => {
    const sameNames: CrossFieldRule = {
      uses: { given: 'givenName', family: 'familyName' },
      check: (row, at) =>
        row[at['given']!] === row[at['family']!] ? { column: 'familyName', message: 'same names' } : undefined,
    };
    const rl = new RowLayout(FILE_LAYOUTS.users, false);
    const row = rl.newRow();
    row[rl.slotOf('givenName')] = 'Lee';
    row[rl.slotOf('familyName')] = 'Lee';
    const issues = new IssueLog();
    new FileRules(rl, refs, issues, [sameNames]).check(row, 3);
    expect(issues.errors).toEqual([{ file: 'users.csv', line: 3, column: 'familyName', message: 'same names' }]);
  });
});
