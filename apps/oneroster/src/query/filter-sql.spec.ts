import { getCatalog, ONEROSTER_RESOURCES, parseFilter, type OneRosterResource } from '@edu/oneroster-query';
import { filterToSql } from './filter-sql';
import { ROSTER_TABLES, sharedRoot, SQL_IDENTIFIER } from './roster-tables';
import { tableOf } from './roster-tables-v1p2';
import { SqlParams } from './sql-params';

const ROOT = 'https://h.example/ims/oneroster/v1p1';

function sql(resource: OneRosterResource, filter: string): { text: string; values: unknown[] } {
  const params = new SqlParams(['tenant']);
  const text = filterToSql(parseFilter(filter, resource), {
    table: tableOf(resource, 'v1p1'),
    params,
    hrefRoots: sharedRoot(ROOT),
  });
  return { text, values: params.values.slice(1) };
}

describe('storage map', () => {
  it.each(ONEROSTER_RESOURCES)('maps every catalog field of %s, with safe identifiers only', (resource) => {
    const table = ROSTER_TABLES[resource];
    expect(table.table).toMatch(SQL_IDENTIFIER);
    for (const field of getCatalog(resource).fields) {
      const source = table.columns[field.name];
      expect(source).toBeDefined();
      if (source && 'column' in source) expect(source.column).toMatch(SQL_IDENTIFIER);
    }
  });
});

describe('filterToSql', () => {
  it('compares human text case-insensitively and binds the value', () => {
    expect(sql('user', "familyName='Smith'")).toEqual({
      text: 'lower(t."family_name") COLLATE "C" = lower($2::text)',
      values: ['Smith'],
    });
  });

  it('compares sourcedIds exactly', () => {
    expect(sql('user', "sourcedId='u-1'")).toEqual({ text: 't."sourced_id" = $2::text', values: ['u-1'] });
  });

  it('makes != the NULL-safe negation of =', () => {
    expect(sql('user', "middleName!='Lee'")).toEqual({
      text: '(lower(t."middle_name") COLLATE "C" = lower($2::text)) IS NOT TRUE',
      values: ['Lee'],
    });
  });

  it('turns ~ into ILIKE with escaped wildcards (and LIKE for exact fields)', () => {
    expect(sql('user', "email~'50%_off\\x'")).toEqual({
      text: 't."email" ILIKE $2::text',
      values: ['%50\\%\\_off\\\\x%'],
    });
    expect(sql('user', "sourcedId~'u-'")).toEqual({ text: 't."sourced_id" LIKE $2::text', values: ['%u-%'] });
  });

  it('keeps quotes inside values as data', () => {
    expect(sql('user', "familyName='O''Brien; DROP TABLE x'")).toEqual({
      text: 'lower(t."family_name") COLLATE "C" = lower($2::text)',
      values: ["O'Brien; DROP TABLE x"],
    });
  });

  it('compares datetimes as instants, in either literal form', () => {
    expect(sql('user', "dateLastModified>'2024-01-31T10:00:00+01:00'")).toEqual({
      text: 't."date_last_modified" > $2::timestamptz',
      values: ['2024-01-31T09:00:00.000Z'],
    });
    expect(sql('user', "dateLastModified>='20240131T235959.123Z'").values).toEqual(['2024-01-31T23:59:59.123Z']);
    expect(sql('user', "dateLastModified<'2024-02-01'").values).toEqual(['2024-02-01T00:00:00.000Z']);
  });

  it('compares dates as dates and years as text', () => {
    expect(sql('academicSession', "startDate>='20240101'")).toEqual({
      text: 't."start_date" >= $2::date',
      values: ['2024-01-01'],
    });
    expect(sql('academicSession', "schoolYear<'2025'")).toEqual({
      text: 't."school_year" COLLATE "C" < $2::text',
      values: ['2025'],
    });
  });

  it('orders human text by lower-cased code points', () => {
    expect(sql('user', "givenName>'m'")).toEqual({
      text: 'lower(t."given_name") COLLATE "C" > lower($2::text)',
      values: ['m'],
    });
  });

  it('binds booleans and canonical enums', () => {
    expect(sql('user', "enabledUser='TRUE'")).toEqual({ text: 't."enabled_user" = $2::boolean', values: [true] });
    expect(sql('user', "role='TEACHER'")).toEqual({ text: 't."role" = $2::text', values: ['teacher'] });
    expect(sql('user', "status='inactive'")).toEqual({ text: 't."status" = $2::text', values: ['tobedeleted'] });
    expect(sql('enrollment', "primary='false'")).toEqual({ text: 't."primary" = $2::boolean', values: [false] });
  });

  it('matches nothing for a value outside an enumeration or true/false, and everything with !=', () => {
    for (const [filter, resource] of [
      ["status='norecords'", 'user'],
      ["role='wizard'", 'user'],
      ["role=''", 'enrollment'],
      ["classType='lab'", 'class'],
      ["type='campus'", 'org'],
      ["sex='other'", 'demographics'],
      ["enabledUser='yes'", 'user'],
      ["primary='1'", 'enrollment'],
    ] as const) {
      expect(sql(resource, filter)).toEqual({ text: 'FALSE', values: [] });
      expect(sql(resource, filter.replace('=', '!='))).toEqual({ text: '(FALSE) IS NOT TRUE', values: [] });
    }
  });

  it('orders enums as lower-cased text and matches ~ case-insensitively, for listed and unlisted values', () => {
    expect(sql('user', "role>'Parent'")).toEqual({
      text: 'lower(t."role") COLLATE "C" > lower($2::text)',
      values: ['parent'],
    });
    expect(sql('user', "role<='zebra'")).toEqual({
      text: 'lower(t."role") COLLATE "C" <= lower($2::text)',
      values: ['zebra'],
    });
    expect(sql('academicSession', "type>='GradingPeriod'").values).toEqual(['gradingPeriod']);
    expect(sql('user', "status~'ACT'")).toEqual({ text: 't."status" ILIKE $2::text', values: ['%act%'] });
    expect(sql('class', "classType~'%'")).toEqual({ text: 't."class_type" ILIKE $2::text', values: ['%\\%%'] });
  });

  it('decides comparisons on a GUIDRef type against the fixed type of the field', () => {
    const present = 't."school_sourced_id" IS NOT NULL';
    expect(sql('class', "school.type='school'")).toEqual({ text: 'FALSE', values: [] });
    expect(sql('class', "school.type!='school'").text).toBe('(FALSE) IS NOT TRUE');
    expect(sql('class', "school.type>'a'").text).toBe(present);
    expect(sql('class', "school.type>='ORG'").text).toBe(present);
    expect(sql('class', "school.type<'org'").text).toBe('FALSE');
    expect(sql('class', "school.type~'R'").text).toBe(present);
    expect(sql('class', "school.type~'x'").text).toBe('FALSE');
    expect(sql('user', "orgs.type~'o'").text).toBe('COALESCE(cardinality(t."org_sourced_ids"), 0) > 0');
  });

  it('maps GUIDRef sub-fields to the sourcedId columns', () => {
    expect(sql('class', "school.sourcedId='s-1'")).toEqual({
      text: 't."school_sourced_id" = $2::text',
      values: ['s-1'],
    });
    expect(sql('class', "school='s-1'").text).toBe('t."school_sourced_id" = $2::text');
    expect(sql('enrollment', "user.sourcedId!='u'").text).toBe('(t."user_sourced_id" = $2::text) IS NOT TRUE');
  });

  it('builds hrefs from the service root for href filters', () => {
    expect(sql('class', `course.href='${ROOT}/courses/c-1'`)).toEqual({
      text: `($2::text || replace(replace(replace(replace(replace(t."course_sourced_id", '%', '%25'), '/', '%2F'), '?', '%3F'), '#', '%23'), ' ', '%20')) = $3::text`,
      values: [`${ROOT}/courses/`, `${ROOT}/courses/c-1`],
    });
  });

  it('evaluates GUIDRef types against the fixed type of the field', () => {
    expect(sql('class', "school.type='org'")).toEqual({ text: 't."school_sourced_id" IS NOT NULL', values: [] });
    expect(sql('class', "school.type='user'")).toEqual({ text: 'FALSE', values: [] });
    expect(sql('class', "school.type!='user'").text).toBe('(FALSE) IS NOT TRUE');
    expect(sql('user', "orgs.type='org'").text).toBe('COALESCE(cardinality(t."org_sourced_ids"), 0) > 0');
  });

  it('uses array containment for exact list membership (GIN-indexable)', () => {
    expect(sql('class', "terms.sourcedId='t-1'")).toEqual({
      text: 't."term_sourced_ids" @> ARRAY[$2::text]',
      values: ['t-1'],
    });
    expect(sql('user', "orgs.sourcedId!='s-1'").text).toBe('(t."org_sourced_ids" @> ARRAY[$2::text]) IS NOT TRUE');
  });

  it('matches any element of human-text lists case-insensitively', () => {
    expect(sql('class', "subjects='math'")).toEqual({
      text: 'EXISTS (SELECT 1 FROM unnest(t."subjects") AS x(v) WHERE lower(x.v) COLLATE "C" = lower($2::text))',
      values: ['math'],
    });
    expect(sql('class', "grades~'0'").text).toBe(
      'EXISTS (SELECT 1 FROM unnest(t."grades") AS x(v) WHERE x.v ILIKE $2::text)',
    );
    expect(sql('class', "grades!='09'").text).toBe(
      '(EXISTS (SELECT 1 FROM unnest(t."grades") AS x(v) WHERE lower(x.v) COLLATE "C" = lower($2::text))) IS NOT TRUE',
    );
  });

  it('reads userIds elements from jsonb', () => {
    expect(sql('user', "userIds.identifier='ABC'")).toEqual({
      text: 'EXISTS (SELECT 1 FROM jsonb_array_elements(t."user_ids") AS u(e) WHERE lower((u.e ->> $2::text)) COLLATE "C" = lower($3::text))',
      values: ['identifier', 'ABC'],
    });
  });

  it('reads metadata keys as bound parameters', () => {
    expect(sql('user', "metadata.microsoft.userFlags~'IEP'")).toEqual({
      text: '(t."metadata" ->> $2::text) ILIKE $3::text',
      values: ['microsoft.userFlags', '%IEP%'],
    });
  });

  it('derives children from rows pointing at this one', () => {
    expect(sql('org', "children.sourcedId='s-2'")).toEqual({
      text: 'EXISTS (SELECT 1 FROM "roster_orgs" AS c WHERE c.tenant_id = t.tenant_id AND c.parent_sourced_id = t.sourced_id AND c.sourced_id = $2::text)',
      values: ['s-2'],
    });
    expect(sql('academicSession', "children.type='academicSession'").text).toBe(
      'EXISTS (SELECT 1 FROM "roster_academic_sessions" AS c WHERE c.tenant_id = t.tenant_id AND c.parent_sourced_id = t.sourced_id)',
    );
  });

  it('derives class and course resources from their active link records', () => {
    expect(sql('class', "resources.sourcedId='r'")).toEqual({
      text: `EXISTS (SELECT 1 FROM "roster_class_resources" AS l WHERE l.tenant_id = t.tenant_id AND l."class_sourced_id" = t.sourced_id AND l.status = 'active' AND l."resource_sourced_id" = $2::text)`,
      values: ['r'],
    });
    expect(sql('course', "resources.sourcedId!='r'").text).toBe(
      `(EXISTS (SELECT 1 FROM "roster_course_resources" AS l WHERE l.tenant_id = t.tenant_id AND l."course_sourced_id" = t.sourced_id AND l.status = 'active' AND l."resource_sourced_id" = $2::text)) IS NOT TRUE`,
    );
    expect(sql('class', "resources.type='resource'").text).toBe(
      `EXISTS (SELECT 1 FROM "roster_class_resources" AS l WHERE l.tenant_id = t.tenant_id AND l."class_sourced_id" = t.sourced_id AND l.status = 'active')`,
    );
    expect(sql('class', "resources.type='class'").text).toBe('FALSE');
    expect(sql('class', "resources.href~'/resources/r'").values).toEqual([`${ROOT}/resources/`, '%/resources/r%']);
  });

  it('compares gradebook numbers numerically and score statuses exactly', () => {
    expect(sql('result', "score>='87.5'")).toEqual({ text: 't."score" >= $2::double precision', values: [87.5] });
    expect(sql('lineItem', "resultValueMax!='100'")).toEqual({
      text: '(t."result_value_max" = $2::double precision) IS NOT TRUE',
      values: [100],
    });
    expect(sql('result', "scoreStatus='Fully Graded'")).toEqual({
      text: 't."score_status" = $2::text',
      values: ['fully graded'],
    });
    expect(sql('result', "student.sourcedId='s-1' AND lineItem='li-1'")).toEqual({
      text: '(t."student_sourced_id" = $2::text AND t."line_item_sourced_id" = $3::text)',
      values: ['s-1', 'li-1'],
    });
    expect(sql('lineItem', "dueDate<'2024-02-01'")).toEqual({
      text: 't."due_date" < $2::timestamptz',
      values: ['2024-02-01T00:00:00.000Z'],
    });
  });

  it('combines two clauses with AND / OR', () => {
    expect(sql('user', "role='student' AND familyName='x'")).toEqual({
      text: '(t."role" = $2::text AND lower(t."family_name") COLLATE "C" = lower($3::text))',
      values: ['student', 'x'],
    });
    expect(sql('user', "username='a' or email~'b'").text).toBe(
      '(lower(t."username") COLLATE "C" = lower($2::text) OR t."email" ILIKE $3::text)',
    );
  });

  it('never puts a literal into the SQL text', () => {
    const hostile = "x'); DELETE FROM roster_users; --";
    const { text, values } = sql('user', `givenName='${hostile.replace(/'/g, "''")}' OR metadata.ab~'z'`);
    expect(text).not.toContain('DELETE');
    expect(values).toContain(hostile);
  });
});
