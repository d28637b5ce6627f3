import { OneRosterQueryError } from '../errors';
import { getCatalog, ONEROSTER_RESOURCES, type OneRosterResource } from '../model/catalog';
import type { FieldRef, FilterNode, PredicateNode } from './ast';
import { filterPredicates } from './ast';
import { parseFilter } from './parser';

function predicate(input: string, resource: OneRosterResource = 'user'): PredicateNode {
  const node = parseFilter(input, resource);
  if (node.kind !== 'predicate') throw new Error(`expected a predicate, got ${node.kind}`);
  return node;
}

function filterError(input: string, resource: OneRosterResource = 'user'): OneRosterQueryError {
  try {
    parseFilter(input, resource);
  } catch (e) {
    if (e instanceof OneRosterQueryError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
}

const familyName: FieldRef = {
  path: 'familyName',
  field: 'familyName',
  fieldKind: 'string',
  valueKind: 'string',
  multi: false,
  textMatch: 'caseInsensitive',
};

describe('parseFilter: predicates', () => {
  it('parses a single clause into a predicate node', () => {
    expect(parseFilter("familyName='Jones'", 'user')).toEqual({
      kind: 'predicate',
      field: familyName,
      op: '=',
      value: { kind: 'string', value: 'Jones' },
    });
  });

  it.each(['=', '!=', '>', '>=', '<', '<=', '~'] as const)('accepts %s on a string field', (op) => {
    expect(predicate(`familyName${op}'Jo'`)).toMatchObject({ op, value: { kind: 'string', value: 'Jo' } });
  });

  it.each(['=', '!=', '>', '>=', '<', '<='] as const)('accepts %s on a datetime field', (op) => {
    expect(predicate(`dateLastModified${op}'2024-08-01T00:00:00.000Z'`)).toMatchObject({
      op,
      value: { kind: 'datetime' },
    });
  });

  it.each(['=', '!=', '>', '>=', '<', '<='] as const)('accepts %s on a date field', (op) => {
    expect(predicate(`startDate${op}'2024-08-01'`, 'academicSession')).toMatchObject({
      op,
      value: { kind: 'date', value: '2024-08-01' },
    });
  });

  it.each(['=', '!=', '>', '>=', '<', '<='] as const)('accepts %s on a year field', (op) => {
    expect(predicate(`schoolYear${op}'2024'`, 'academicSession')).toMatchObject({
      op,
      value: { kind: 'year', value: '2024' },
    });
  });

  it.each(['=', '!='] as const)('accepts %s on enum and boolean fields', (op) => {
    expect(predicate(`role${op}'student'`)).toMatchObject({ op, value: { kind: 'enum', value: 'student' } });
    expect(predicate(`enabledUser${op}'true'`)).toMatchObject({ op, value: { kind: 'boolean', value: true } });
  });

  it.each(['>', '>=', '<', '<=', '~'] as const)(
    'accepts %s on enums, which compare as strings (reference §5.3)',
    (op) => {
      expect(predicate(`role${op}'STUDENT'`)).toMatchObject({ op, value: { kind: 'enum', value: 'student' } });
      expect(predicate(`type${op}'Term'`, 'academicSession')).toMatchObject({
        op,
        value: { kind: 'enum', value: 'term' },
      });
      expect(predicate(`status${op}'Act'`)).toMatchObject({ op, value: { kind: 'unlisted', value: 'act' } });
      expect(predicate(`school.type${op}'org'`, 'class')).toMatchObject({ op, value: { kind: 'enum', value: 'org' } });
    },
  );

  it.each(['>', '>=', '<', '<=', '~'] as const)('rejects %s on boolean fields', (op) => {
    expect(filterError(`enabledUser${op}'true'`).message).toMatch(/cannot be used on 'enabledUser'/);
    expect(filterError(`primary${op}'false'`, 'enrollment').code).toBe('invalid_filter_field');
  });

  it('accepts ~ but no ordering on multi-valued enums (GUIDRef list types)', () => {
    expect(predicate("orgs.type~'or'")).toMatchObject({ op: '~', value: { kind: 'unlisted', value: 'or' } });
    expect(filterError("orgs.type>'org'").message).toMatch(/cannot be used on 'orgs.type' \(list of enum\)/);
  });

  it.each(['~'] as const)('rejects %s on date, datetime and year fields', (op) => {
    expect(filterError(`dateLastModified${op}'2024'`).code).toBe('invalid_filter_field');
    expect(filterError(`startDate${op}'2024-01-01'`, 'academicSession').code).toBe('invalid_filter_field');
    expect(filterError(`schoolYear${op}'2024'`, 'academicSession').code).toBe('invalid_filter_field');
  });

  it('treats field names case-insensitively and reports the canonical name', () => {
    expect(predicate("FAMILYNAME='x'").field.path).toBe('familyName');
    expect(predicate("DateLastModified>'2024-01-01'").field.field).toBe('dateLastModified');
  });

  it('marks sourcedId as exact and human text as case-insensitive', () => {
    expect(predicate("sourcedId='u-1'").field).toMatchObject({ textMatch: 'exact', valueKind: 'string' });
    expect(predicate("email~'example.org'").field.textMatch).toBe('caseInsensitive');
    expect(predicate("role='student'").field.textMatch).toBe('exact');
  });

  it('parses the filters real consumers send', () => {
    for (const [resource, filter] of [
      ['user', "status='active'"],
      ['user', "dateLastModified>'2024-08-01T00:00:00.000Z'"],
      ['user', "role='student' AND dateLastModified>'2024-08-01T00:00:00.000Z'"],
      ['user', "givenName='Smith' AND familyName='Azure'"],
      ['user', "username='stud1' OR email~'stud1'"],
      ['user', "email='x@y.org'"],
      ['academicSession', "schoolYear='2024' AND status='active'"],
      ['enrollment', "role='teacher'"],
      ['class', "title~'Algebra'"],
    ] as const) {
      expect(() => parseFilter(filter, resource)).not.toThrow();
    }
  });
});

describe('parseFilter: quoting', () => {
  it("turns '' into a quote inside values", () => {
    expect(predicate("familyName='O''Brien'").value).toEqual({ kind: 'string', value: "O'Brien" });
    expect(predicate("familyName=''''''").value).toEqual({ kind: 'string', value: "''" });
    expect(predicate("familyName='a''''b'").value).toEqual({ kind: 'string', value: "a''b" });
  });

  it('keeps string values verbatim: spaces, operators and keywords included', () => {
    expect(predicate("givenName=' Ann Marie '").value).toEqual({ kind: 'string', value: ' Ann Marie ' });
    expect(predicate("givenName='a AND b=''c'''").value).toEqual({ kind: 'string', value: "a AND b='c'" });
    expect(predicate("givenName='Zoë 😀'").value).toEqual({ kind: 'string', value: 'Zoë 😀' });
  });

  it('accepts an empty string value on text fields', () => {
    expect(predicate("middleName=''").value).toEqual({ kind: 'string', value: '' });
    expect(predicate("email~''").value).toEqual({ kind: 'string', value: '' });
  });

  it('rejects an unterminated quote', () => {
    expect(filterError("familyName='Jones").message).toMatch(/Unterminated/);
    expect(filterError("familyName='O''Brien").code).toBe('invalid_filter_field');
    expect(filterError("familyName='Jones' AND role='student").code).toBe('invalid_filter_field');
  });

  it('rejects unquoted, double-quoted and missing values', () => {
    expect(filterError('familyName=Jones').message).toMatch(/Expected a value in single quotes/);
    expect(filterError('familyName="Jones"').message).toMatch(/single quotes/);
    expect(filterError('familyName=').code).toBe('invalid_filter_field');
    expect(filterError("familyName='a''b'c'").code).toBe('invalid_filter_field');
  });
});

describe('parseFilter: whitespace', () => {
  it('tolerates surrounding whitespace and spaces around operators', () => {
    const expected = parseFilter("familyName='x'", 'user');
    for (const input of ["  familyName='x'  ", "familyName = 'x'", "familyName\t=\t'x'", "\nfamilyName='x'\n"]) {
      expect(parseFilter(input, 'user')).toEqual(expected);
    }
  });

  it('tolerates flexible spacing around the logical keyword', () => {
    const expected = parseFilter("role='student' AND status='active'", 'user');
    for (const input of [
      "role='student'  AND   status='active'",
      "role='student'AND status='active'",
      "role='student' AND\tstatus='active'",
      "role = 'student'\nAND\nstatus = 'active'",
    ]) {
      expect(parseFilter(input, 'user')).toEqual(expected);
    }
  });

  it('does not split an operator with spaces', () => {
    expect(filterError("familyName! ='x'").code).toBe('invalid_filter_field');
    expect(filterError("familyName> ='x'").code).toBe('invalid_filter_field');
  });
});

describe('parseFilter: logical operators', () => {
  it('builds and/or nodes', () => {
    const node = parseFilter("role='student' AND status='active'", 'user');
    expect(node).toMatchObject({
      kind: 'and',
      left: { kind: 'predicate', field: { path: 'role' }, value: { kind: 'enum', value: 'student' } },
      right: { kind: 'predicate', field: { path: 'status' }, value: { kind: 'enum', value: 'active' } },
    });
    expect(parseFilter("username='stud1' OR email~'stud1'", 'user').kind).toBe('or');
  });

  it.each([
    ['AND', 'and'],
    ['and', 'and'],
    ['And', 'and'],
    ['OR', 'or'],
    ['or', 'or'],
    ['Or', 'or'],
  ] as const)('accepts the keyword in any case: %s', (keyword, kind) => {
    expect(parseFilter(`role='student' ${keyword} status='active'`, 'user').kind).toBe(kind);
  });

  it('rejects three clauses, with the same or mixed operators', () => {
    for (const input of [
      "role='student' AND status='active' AND givenName='x'",
      "role='student' OR status='active' OR givenName='x'",
      "role='student' AND status='active' OR givenName='x'",
    ]) {
      const error = filterError(input);
      expect(error).toMatchObject({ code: 'invalid_filter_field', parameter: 'filter' });
      expect(error.message).toMatch(/At most one logical operator/);
    }
  });

  it('rejects dangling or doubled logical operators', () => {
    expect(filterError("role='student' AND").message).toMatch(/Expected a field name/);
    expect(filterError("AND role='student'").code).toBe('invalid_filter_field');
    expect(filterError("role='student' AND AND status='active'").code).toBe('invalid_filter_field');
    expect(filterError("role='student' status='active'").message).toMatch(/'AND', 'OR'/);
    expect(filterError("role='student' NOT status='active'").code).toBe('invalid_filter_field');
  });

  it('rejects a keyword used as a field name', () => {
    expect(filterError("and='x'").code).toBe('invalid_filter_field');
  });

  it('lists predicates left to right', () => {
    const node: FilterNode = parseFilter("role='student' OR status='active'", 'user');
    expect(filterPredicates(node).map((p) => p.field.path)).toEqual(['role', 'status']);
  });
});

describe('parseFilter: dotted and array fields', () => {
  it('resolves GUIDRef sub-fields (exact sourcedId)', () => {
    expect(predicate("school.sourcedId='sch-1'", 'class').field).toEqual({
      path: 'school.sourcedId',
      field: 'school',
      subField: 'sourcedId',
      fieldKind: 'guidRef',
      valueKind: 'string',
      multi: false,
      textMatch: 'exact',
    });
    expect(predicate("class.sourcedId='c-1'", 'enrollment').field.path).toBe('class.sourcedId');
    expect(predicate("user.sourcedId='u-1'", 'enrollment').field.path).toBe('user.sourcedId');
    expect(predicate("course.sourcedId='c-1'", 'class').field.path).toBe('course.sourcedId');
    expect(predicate("parent.href~'/orgs/'", 'org').field).toMatchObject({ subField: 'href', textMatch: 'exact' });
  });

  it('reads a GUIDRef type as an enum', () => {
    expect(predicate("parent.type='ACADEMICSESSION'", 'academicSession').value).toEqual({
      kind: 'enum',
      value: 'academicSession',
    });
    expect(predicate("parent.type='School'", 'org').value).toEqual({ kind: 'unlisted', value: 'school' });
  });

  it('resolves GUIDRef list sub-fields with any-element semantics', () => {
    expect(predicate("orgs.sourcedId='sch-1'").field).toMatchObject({
      field: 'orgs',
      fieldKind: 'guidRefList',
      multi: true,
      textMatch: 'exact',
    });
    expect(predicate("terms.sourcedId='t-1'", 'class').field).toMatchObject({ path: 'terms.sourcedId', multi: true });
    expect(predicate("agents.sourcedId='p-7'").field.multi).toBe(true);
    expect(predicate("children.sourcedId='x'", 'org').field.multi).toBe(true);
    expect(predicate("resources.sourcedId='r'", 'course').field.multi).toBe(true);
  });

  it('treats a bare GUIDRef name as its sourcedId', () => {
    expect(predicate("school='sch-1'", 'class').field.path).toBe('school.sourcedId');
    expect(predicate("orgs='sch-1'").field.path).toBe('orgs.sourcedId');
    expect(predicate("schoolYear='sy-2024'", 'course').field.path).toBe('schoolYear.sourcedId');
  });

  it('matches sub-field names case-insensitively', () => {
    expect(predicate("SCHOOL.SOURCEDID='sch-1'", 'class').field.path).toBe('school.sourcedId');
  });

  it('resolves userIds sub-fields', () => {
    expect(predicate("userIds.identifier='100234'").field).toEqual({
      path: 'userIds.identifier',
      field: 'userIds',
      subField: 'identifier',
      fieldKind: 'userIds',
      valueKind: 'string',
      multi: true,
      textMatch: 'caseInsensitive',
    });
    expect(predicate("userIds.type='LDAP'").field.subField).toBe('type');
    expect(filterError("userIds='x'").message).toMatch(/sub-field/);
    expect(filterError("userIds.sourcedId='x'").code).toBe('invalid_filter_field');
  });

  it('resolves any metadata key, keeping its case and dots', () => {
    expect(predicate("metadata.microsoft.userFlags~'IEP'").field).toEqual({
      path: 'metadata.microsoft.userFlags',
      field: 'metadata',
      subField: 'microsoft.userFlags',
      fieldKind: 'metadata',
      valueKind: 'string',
      multi: false,
      textMatch: 'caseInsensitive',
    });
    expect(predicate("metadata.x='1'", 'org').field.subField).toBe('x');
    expect(filterError("metadata='x'").code).toBe('invalid_filter_field');
  });

  it('treats string lists as multi-valued strings', () => {
    expect(predicate("grades='09'").field).toMatchObject({ fieldKind: 'stringList', valueKind: 'string', multi: true });
    expect(predicate("subjects~'math'", 'class').op).toBe('~');
    expect(predicate("periods!='1'", 'class').op).toBe('!=');
    expect(predicate("subjectCodes='02052'", 'course').field.path).toBe('subjectCodes');
  });

  it('rejects ordering operators on multi-valued fields', () => {
    expect(filterError("grades>'09'").message).toMatch(/list of string/);
    expect(filterError("orgs.sourcedId<'x'").code).toBe('invalid_filter_field');
    expect(filterError("userIds.identifier>='1'").code).toBe('invalid_filter_field');
  });

  it('allows ordering on single-valued text sub-fields', () => {
    expect(predicate("school.sourcedId>'a'", 'class').op).toBe('>');
    expect(predicate("metadata.rank<='5'").op).toBe('<=');
  });

  it('rejects unknown fields and sub-fields', () => {
    for (const [input, resource] of [
      ["nickname='x'", 'user'],
      ["school.sourcedId='x'", 'user'],
      ["school.name='x'", 'class'],
      ["familyName.first='x'", 'user'],
      ["role='student'", 'org'],
      ["title='x'", 'user'],
      ["schoolYear='2024'", 'class'],
      ["sex='male'", 'user'],
    ] as const) {
      const error = filterError(input, resource);
      expect(error).toMatchObject({ code: 'invalid_filter_field', parameter: 'filter', position: 0 });
      expect(error.message).toMatch(/Unknown filter field/);
    }
  });

  it('rejects malformed dotted names', () => {
    for (const input of ["school.='x'", ".school='x'", "school..sourcedId='x'", "metadata.a..b='x'"]) {
      expect(filterError(input, 'class').code).toBe('invalid_filter_field');
    }
  });

  it('refuses to filter on the password', () => {
    expect(filterError("password='secret'").message).toMatch(/cannot be filtered/);
  });
});

describe('parseFilter: typed literals', () => {
  it('accepts dates in ISO and compact form, normalised to YYYY-MM-DD', () => {
    expect(predicate("birthDate='2010-05-17'", 'demographics').value).toEqual({ kind: 'date', value: '2010-05-17' });
    expect(predicate("birthDate='20100517'", 'demographics').value).toEqual({ kind: 'date', value: '2010-05-17' });
    expect(predicate("beginDate>=' 20240901 '", 'enrollment').value).toEqual({ kind: 'date', value: '2024-09-01' });
  });

  it('rejects bad dates', () => {
    for (const value of ['2024-02-30', '2024-13-01', '17/05/2010', '2010-05-17T00:00:00Z', '', 'x']) {
      expect(filterError(`birthDate='${value}'`, 'demographics').message).toMatch(/expected a date/);
    }
  });

  it('accepts datetimes in every documented form, as instants', () => {
    const cases: Array<[string, string, boolean]> = [
      ['2024-01-31T23:59:59.123Z', '2024-01-31T23:59:59.123Z', false],
      ['2024-01-31T23:59:59Z', '2024-01-31T23:59:59.000Z', false],
      ['2024-01-31', '2024-01-31T00:00:00.000Z', true],
      ['2024-01-31T23:59:59+01:00', '2024-01-31T22:59:59.000Z', false],
      ['2024-01-31T23:59:59 01:00', '2024-01-31T22:59:59.000Z', false],
      ['20240131T235959.123Z', '2024-01-31T23:59:59.123Z', false],
      ['20240131', '2024-01-31T00:00:00.000Z', true],
    ];
    for (const [literal, iso, dateOnly] of cases) {
      expect(predicate(`dateLastModified>'${literal}'`).value).toEqual({
        kind: 'datetime',
        value: new Date(iso),
        iso,
        dateOnly,
      });
    }
  });

  it('rejects bad datetimes', () => {
    for (const value of ['2024-01-31T25:00:00Z', 'yesterday', '', '2024-01-31T23:59:59+25:00', '1706745599']) {
      expect(filterError(`dateLastModified>'${value}'`).message).toMatch(/expected an ISO 8601 datetime/);
    }
  });

  it('accepts booleans in any case', () => {
    expect(predicate("enabledUser='TRUE'").value).toEqual({ kind: 'boolean', value: true });
    expect(predicate("primary='false'", 'enrollment').value).toEqual({ kind: 'boolean', value: false });
    expect(predicate("white='False'", 'demographics').value).toEqual({ kind: 'boolean', value: false });
  });

  it('reads any other boolean literal as a value no record holds', () => {
    for (const [value, unlisted] of [
      ['yes', 'yes'],
      ['1', '1'],
      ['', ''],
      [' T ', 't'],
      ['NULL', 'null'],
    ]) {
      expect(predicate(`enabledUser='${value}'`).value).toEqual({ kind: 'unlisted', value: unlisted });
      expect(predicate(`white!='${value}'`, 'demographics').value).toEqual({ kind: 'unlisted', value: unlisted });
    }
  });

  it('normalises enum values to their canonical case', () => {
    expect(predicate("role='STUDENT'").value).toEqual({ kind: 'enum', value: 'student' });
    expect(predicate("type='GradingPeriod'", 'academicSession').value).toEqual({
      kind: 'enum',
      value: 'gradingPeriod',
    });
    expect(predicate("classType='Scheduled'", 'class').value).toEqual({ kind: 'enum', value: 'scheduled' });
    expect(predicate("type='school'", 'org').value).toEqual({ kind: 'enum', value: 'school' });
    expect(predicate("sex='Female'", 'demographics').value).toEqual({ kind: 'enum', value: 'female' });
    expect(predicate("role='guardian'", 'enrollment').value).toEqual({ kind: 'enum', value: 'guardian' });
  });

  it("maps v1.0's status 'inactive' to 'tobedeleted'", () => {
    expect(predicate("status='Inactive'").value).toEqual({ kind: 'enum', value: 'tobedeleted' });
  });

  it('reads values outside an enumeration as unlisted (trimmed, lower-cased), on every enum field', () => {
    const cases: Array<[string, OneRosterResource]> = [
      ["status='NoRecords'", 'user'],
      ["status='norecords'", 'class'],
      ["role='Wizard'", 'user'],
      ["role='wizard'", 'enrollment'],
      ["classType='Lab'", 'class'],
      ["type='campus'", 'org'],
      ["type='quarter'", 'academicSession'],
      ["sex='other'", 'demographics'],
      ["school.type='school'", 'enrollment'],
      ["terms.type='semester'", 'class'],
    ];
    for (const [input, resource] of cases) {
      const value = /'(.*)'/.exec(input)![1]!.toLowerCase();
      expect(predicate(input, resource).value).toEqual({ kind: 'unlisted', value });
    }
    expect(predicate("status=''").value).toEqual({ kind: 'unlisted', value: '' });
    expect(predicate("status=' Archived '").value).toEqual({ kind: 'unlisted', value: 'archived' });
    expect(predicate("status!='norecords'")).toMatchObject({
      op: '!=',
      value: { kind: 'unlisted', value: 'norecords' },
    });
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(predicate(`status='${name}'`).value).toEqual({ kind: 'unlisted', value: name.toLowerCase() });
    }
  });

  it.each(ONEROSTER_RESOURCES)('accepts a value no record holds on every enum and boolean field of %s', (resource) => {
    const paths = getCatalog(resource).fields.flatMap((f) => {
      if (f.kind === 'enum' || f.kind === 'boolean') return [f.name];
      return f.kind === 'guidRef' || f.kind === 'guidRefList' ? [`${f.name}.type`] : [];
    });
    expect(paths).toContain('status');
    for (const path of paths) {
      for (const op of ['=', '!='] as const) {
        expect(predicate(`${path}${op}'NoRecords'`, resource)).toMatchObject({
          op,
          value: { kind: 'unlisted', value: 'norecords' },
        });
      }
    }
  });

  it('still rejects unknown fields and unparseable filters next to unlisted values', () => {
    expect(filterError("nickname='norecords'").message).toMatch(/Unknown filter field/);
    expect(filterError('status=norecords').code).toBe('invalid_filter_field');
    expect(filterError("status='norecords").message).toMatch(/Unterminated/);
    expect(filterError("status='norecords' AND role='x' OR sex='y'").code).toBe('invalid_filter_field');
  });

  it('reads number literals and compares numbers with ordering operators but not ~', () => {
    expect(predicate("score>='87.5'", 'result')).toMatchObject({
      op: '>=',
      field: { path: 'score', valueKind: 'number', multi: false },
      value: { kind: 'number', value: 87.5 },
    });
    expect(predicate("score=' -2 '", 'result').value).toEqual({ kind: 'number', value: -2 });
    expect(predicate("resultValueMax<'1e3'", 'lineItem').value).toEqual({ kind: 'number', value: 1000 });
    expect(predicate("score='-0'", 'result').value).toEqual({ kind: 'number', value: 0 });
    expect(predicate("score='.5'", 'result').value).toEqual({ kind: 'number', value: 0.5 });
    for (const value of ['', 'abc', '1,5', '1e999', 'NaN', 'Infinity', '0x10', '--1']) {
      expect(filterError(`score='${value}'`, 'result').message).toMatch(/decimal number/);
    }
    expect(filterError("score~'8'", 'result').message).toMatch(/Operator '~'/);
  });

  it('reads score statuses with their spaces, case-insensitively', () => {
    expect(predicate("scoreStatus='Fully Graded'", 'result').value).toEqual({ kind: 'enum', value: 'fully graded' });
    expect(predicate("scoreStatus='fullygraded'", 'result').value).toEqual({ kind: 'unlisted', value: 'fullygraded' });
  });

  it('accepts only four-digit years', () => {
    expect(predicate("schoolYear='2024'", 'academicSession').value).toEqual({ kind: 'year', value: '2024' });
    for (const value of ['24', '2023-24', '20245', '', 'abcd']) {
      expect(filterError(`schoolYear='${value}'`, 'academicSession').message).toMatch(/four-digit year/);
    }
  });
});

describe('parseFilter: syntax errors', () => {
  it.each([
    '',
    '   ',
    "='x'",
    'familyName',
    "familyName 'x'",
    "familyName=='x'",
    "familyName='x' 'y'",
    "familyName='x' AND",
    "(familyName='x')",
    "familyName='x' AND (role='student')",
    "familyName<>'x'",
    "familyName=>'x'",
    "familyName='x' && role='student'",
  ])('rejects %p with invalid_filter_field', (input) => {
    expect(filterError(input)).toMatchObject({ code: 'invalid_filter_field', parameter: 'filter', httpStatus: 400 });
  });

  it('keeps messages short when echoing huge inputs', () => {
    expect(filterError(`schoolYear='${'x'.repeat(10_000)}'`, 'academicSession').message.length).toBeLessThan(200);
    expect(filterError(`${'n'.repeat(10_000)}='x'`).message.length).toBeLessThan(200);
  });

  it('parses a very long value', () => {
    const value = "ab''".repeat(250_000);
    expect(predicate(`familyName='${value}'`).value).toEqual({ kind: 'string', value: "ab'".repeat(250_000) });
  });

  it('reports the position of the problem', () => {
    expect(filterError("familyName='x' AND role=student").position).toBe(24);
    expect(filterError("familyName='x' foo").position).toBe(15);
  });
});
