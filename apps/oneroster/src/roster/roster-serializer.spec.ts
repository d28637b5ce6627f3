import { ROSTER_TABLES, sharedRoot } from '../query/roster-tables';
import { rowSerializer, urlSegment } from './roster-serializer';

const ROOT = 'https://h.example/ims/oneroster/v1p1';

describe('rowSerializer', () => {
  it('selects slim columns: formatted dates, jsonb as text', () => {
    const s = rowSerializer(ROSTER_TABLES.enrollment, undefined, {
      dateMode: 'compact',
      booleans: 'string',
      hrefRoots: sharedRoot(ROOT),
    });
    expect(s.columns).toContain(
      `to_char(t."date_last_modified" AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISS.MS"Z"') AS "c2"`,
    );
    expect(s.columns).toContain(`to_char(t."begin_date", 'YYYYMMDD')`);
    const iso = rowSerializer(ROSTER_TABLES.enrollment, undefined, {
      dateMode: 'iso8601',
      booleans: 'json',
      hrefRoots: sharedRoot(ROOT),
    });
    expect(iso.columns).toContain(`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`);
  });

  it('writes GUIDRefs, omits absent values and honours the boolean mode', () => {
    const s = rowSerializer(ROSTER_TABLES.enrollment, undefined, {
      dateMode: 'compact',
      booleans: 'string',
      hrefRoots: sharedRoot(ROOT),
    });
    // c0 sourcedId, c1 status, c2 dateLastModified, c3 user, c4 class, c5 school, c6 role, c7 primary, c8 beginDate, c9 endDate, c10 metadata
    const row = ['e"1', 'active', '20240101T000000.000Z', 'u 1', 'c1', 's1', 'teacher', true, null, '', null];
    expect(JSON.parse(s.write(row))).toEqual({
      sourcedId: 'e"1',
      status: 'active',
      dateLastModified: '20240101T000000.000Z',
      user: { href: `${ROOT}/users/u%201`, sourcedId: 'u 1', type: 'user' },
      class: { href: `${ROOT}/classes/c1`, sourcedId: 'c1', type: 'class' },
      school: { href: `${ROOT}/orgs/s1`, sourcedId: 's1', type: 'org' },
      role: 'teacher',
      primary: 'true',
    });
    const json = rowSerializer(ROSTER_TABLES.enrollment, undefined, {
      dateMode: 'compact',
      booleans: 'json',
      hrefRoots: sharedRoot(ROOT),
    });
    expect(JSON.parse(json.write(row.with(7, false))).primary).toBe(false);
  });

  it('writes only the selected fields, in the requested order', () => {
    const s = rowSerializer(ROSTER_TABLES.user, ['familyName', 'orgs', 'sourcedId', 'password'], {
      dateMode: 'compact',
      booleans: 'string',
      hrefRoots: sharedRoot(ROOT),
    });
    expect(s.columns).toBe('t."family_name" AS "c0", t."org_sourced_ids" AS "c1", t."sourced_id" AS "c2"');
    expect(s.write(['Doe', [], 'u1'])).toBe('{"familyName":"Doe","sourcedId":"u1"}');
    expect(s.write(['Doe', ['o1', 'o2'], 'u1'])).toBe(
      `{"familyName":"Doe","orgs":[{"href":"${ROOT}/orgs/o1","sourcedId":"o1","type":"org"},{"href":"${ROOT}/orgs/o2","sourcedId":"o2","type":"org"}],"sourcedId":"u1"}`,
    );
  });

  it('escapes ids for href path segments like the href filter does', () => {
    expect(urlSegment('plain-id_1.2~x')).toBe('plain-id_1.2~x');
    expect(urlSegment('a b/c?d#e%f')).toBe('a%20b%2Fc%3Fd%23e%25f');
  });
});
