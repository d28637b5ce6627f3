import {
  GUID_REF_SUBFIELDS,
  ONEROSTER_RESOURCES,
  RESOURCE_KEYS,
  USER_ID_SUBFIELDS,
  filterableFields,
  getCatalog,
  isOneRosterResource,
  sortableFields,
  subFieldsOf,
  type OneRosterResource,
} from './catalog';
import { SCALAR_KINDS } from './field-kinds';

const names = (resource: OneRosterResource): string[] => getCatalog(resource).fields.map((f) => f.name);
const kindOf = (resource: OneRosterResource, name: string): string | undefined =>
  getCatalog(resource).field(name)?.kind;

describe('field catalogs', () => {
  it.each(ONEROSTER_RESOURCES)('%s starts with the base fields', (resource) => {
    expect(names(resource).slice(0, 4)).toEqual(['sourcedId', 'status', 'dateLastModified', 'metadata']);
    expect(kindOf(resource, 'sourcedId')).toBe('string');
    expect(kindOf(resource, 'status')).toBe('enum');
    expect(kindOf(resource, 'dateLastModified')).toBe('datetime');
    expect(kindOf(resource, 'metadata')).toBe('metadata');
  });

  it('lists exactly the reference §3 fields per class', () => {
    expect(names('academicSession').slice(4)).toEqual([
      'title',
      'startDate',
      'endDate',
      'type',
      'parent',
      'children',
      'schoolYear',
    ]);
    expect(names('class').slice(4)).toEqual([
      'title',
      'classCode',
      'classType',
      'location',
      'grades',
      'subjects',
      'course',
      'school',
      'terms',
      'subjectCodes',
      'periods',
      'resources',
    ]);
    expect(names('course').slice(4)).toEqual([
      'title',
      'schoolYear',
      'courseCode',
      'grades',
      'subjects',
      'org',
      'subjectCodes',
      'resources',
    ]);
    expect(names('demographics').slice(4)).toEqual([
      'birthDate',
      'sex',
      'americanIndianOrAlaskaNative',
      'asian',
      'blackOrAfricanAmerican',
      'nativeHawaiianOrOtherPacificIslander',
      'white',
      'demographicRaceTwoOrMoreRaces',
      'hispanicOrLatinoEthnicity',
      'countryOfBirthCode',
      'stateOfBirthAbbreviation',
      'cityOfBirth',
      'publicSchoolResidenceStatus',
    ]);
    expect(names('enrollment').slice(4)).toEqual([
      'user',
      'class',
      'school',
      'role',
      'primary',
      'beginDate',
      'endDate',
    ]);
    expect(names('org').slice(4)).toEqual(['name', 'type', 'identifier', 'parent', 'children']);
    expect(names('user').slice(4)).toEqual([
      'username',
      'userIds',
      'enabledUser',
      'givenName',
      'familyName',
      'middleName',
      'role',
      'identifier',
      'email',
      'sms',
      'phone',
      'agents',
      'orgs',
      'grades',
      'password',
    ]);
    expect(names('category').slice(4)).toEqual(['title']);
    expect(names('lineItem').slice(4)).toEqual([
      'title',
      'description',
      'assignDate',
      'dueDate',
      'class',
      'category',
      'gradingPeriod',
      'resultValueMin',
      'resultValueMax',
    ]);
    expect(names('result').slice(4)).toEqual(['lineItem', 'student', 'scoreStatus', 'score', 'scoreDate', 'comment']);
    expect(names('resource').slice(4)).toEqual([
      'title',
      'roles',
      'importance',
      'vendorResourceId',
      'vendorId',
      'applicationId',
    ]);
  });

  it('types the gradebook and resources fields', () => {
    expect(kindOf('lineItem', 'assignDate')).toBe('datetime');
    expect(kindOf('lineItem', 'gradingPeriod')).toBe('guidRef');
    expect(kindOf('lineItem', 'resultValueMax')).toBe('number');
    expect(kindOf('result', 'score')).toBe('number');
    expect(kindOf('result', 'scoreDate')).toBe('date');
    expect(kindOf('result', 'student')).toBe('guidRef');
    expect(getCatalog('result').field('scoreStatus')?.values).toEqual([
      'exempt',
      'fully graded',
      'not submitted',
      'partially graded',
      'submitted',
    ]);
    expect(kindOf('resource', 'roles')).toBe('stringList');
    expect(getCatalog('resource').field('importance')?.values).toEqual(['primary', 'secondary']);
    expect(sortableFields('result')).toEqual([
      'sourcedId',
      'status',
      'dateLastModified',
      'scoreStatus',
      'score',
      'scoreDate',
      'comment',
    ]);
  });

  it('gives each field its kind', () => {
    expect(kindOf('academicSession', 'schoolYear')).toBe('year');
    expect(kindOf('course', 'schoolYear')).toBe('guidRef');
    expect(kindOf('academicSession', 'startDate')).toBe('date');
    expect(kindOf('academicSession', 'children')).toBe('guidRefList');
    expect(kindOf('class', 'periods')).toBe('stringList');
    expect(kindOf('class', 'subjectCodes')).toBe('stringList');
    expect(kindOf('class', 'school')).toBe('guidRef');
    expect(kindOf('class', 'terms')).toBe('guidRefList');
    expect(kindOf('user', 'userIds')).toBe('userIds');
    expect(kindOf('user', 'agents')).toBe('guidRefList');
    expect(kindOf('user', 'enabledUser')).toBe('boolean');
    expect(kindOf('enrollment', 'primary')).toBe('boolean');
    expect(kindOf('demographics', 'white')).toBe('boolean');
    expect(kindOf('demographics', 'sex')).toBe('enum');
  });

  it('carries enum values in canonical case', () => {
    expect(getCatalog('academicSession').field('type')?.values).toEqual([
      'gradingPeriod',
      'semester',
      'schoolYear',
      'term',
    ]);
    expect(getCatalog('org').field('type')?.values).toEqual([
      'department',
      'school',
      'district',
      'local',
      'state',
      'national',
    ]);
    expect(getCatalog('class').field('classType')?.values).toEqual(['homeroom', 'scheduled']);
    expect(getCatalog('user').field('role')?.values).toHaveLength(8);
    expect(getCatalog('enrollment').field('role')?.values).toHaveLength(8);
    expect(getCatalog('user').field('status')?.aliases).toEqual({ inactive: 'tobedeleted' });
  });

  it('finds fields case-insensitively and returns the canonical definition', () => {
    expect(getCatalog('user').field('GIVENNAME')?.name).toBe('givenName');
    expect(getCatalog('user').field('nickname')).toBeUndefined();
  });

  it('makes exactly the scalar fields sortable (except password)', () => {
    for (const resource of ONEROSTER_RESOURCES) {
      for (const f of getCatalog(resource).fields) {
        expect(f.sortable).toBe(SCALAR_KINDS.includes(f.kind) && f.name !== 'password');
      }
    }
    expect(sortableFields('user')).toEqual([
      'sourcedId',
      'status',
      'dateLastModified',
      'username',
      'enabledUser',
      'givenName',
      'familyName',
      'middleName',
      'role',
      'identifier',
      'email',
      'sms',
      'phone',
    ]);
  });

  it('makes every field filterable except the password', () => {
    expect(filterableFields('user')).not.toContain('password');
    expect(filterableFields('user')).toContain('userIds');
    expect(filterableFields('class')).toEqual(names('class'));
  });

  it('marks sourcedId as case-sensitive and human text as not', () => {
    expect(getCatalog('user').field('sourcedId')?.caseSensitive).toBe(true);
    expect(getCatalog('user').field('familyName')?.caseSensitive).toBe(false);
  });

  it('describes sub-fields of structured kinds', () => {
    expect(subFieldsOf('guidRef')).toBe(GUID_REF_SUBFIELDS);
    expect(subFieldsOf('guidRefList')).toBe(GUID_REF_SUBFIELDS);
    expect(subFieldsOf('userIds')).toBe(USER_ID_SUBFIELDS);
    expect(subFieldsOf('string')).toEqual([]);
    expect(GUID_REF_SUBFIELDS.map((s) => s.name)).toEqual(['sourcedId', 'href', 'type']);
    expect(USER_ID_SUBFIELDS.map((s) => s.name)).toEqual(['type', 'identifier']);
  });

  it('knows the wrapper keys and rejects unknown resources', () => {
    expect(RESOURCE_KEYS.academicSession).toEqual({ single: 'academicSession', collection: 'academicSessions' });
    expect(RESOURCE_KEYS.demographics).toEqual({ single: 'demographics', collection: 'demographics' });
    expect(RESOURCE_KEYS.category).toEqual({ single: 'category', collection: 'categories' });
    expect(RESOURCE_KEYS.lineItem).toEqual({ single: 'lineItem', collection: 'lineItems' });
    expect(RESOURCE_KEYS.result).toEqual({ single: 'result', collection: 'results' });
    expect(RESOURCE_KEYS.resource).toEqual({ single: 'resource', collection: 'resources' });
    expect(isOneRosterResource('user')).toBe(true);
    expect(isOneRosterResource('users')).toBe(false);
    expect(() => getCatalog('nope' as OneRosterResource)).toThrow(TypeError);
  });
});
