import { ROSTER_TABLES, sharedRoot } from '../query/roster-tables';
import { rowSerializer, urlSegment } from './roster-serializer';

const ROOT = 'https://h.example/ims/oneroster/v1p1';

describe('rowSerializer', () => {
  it('lets the database write runs of plain fields as JSON members, formatted per deployment', () => {
    const s = rowSerializer(ROSTER_TABLES.enrollment, undefined, { dateMode: 'compact', booleans: 'string', hrefRoots: sharedRoot(ROOT) });
    // c0 sourcedId, status, dateLastModified; c1 user, c2 class, c3 school (references: JavaScript); c4 role, primary, beginDate, endDate, metadata
    expect(s.columns).toContain(`to_char(t."date_last_modified" AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISS.MS"Z"')`);
    expect(s.columns).toContain(`to_char(t."begin_date", 'YYYYMMDD')`);
    expect(s.columns).toContain(`t."user_sourced_id" AS "c1"`);
    expect(s.columns).toContain(`CASE t."primary" WHEN true THEN '"primary":"true"' WHEN false THEN '"primary":"false"' END`);
    expect(s.columns).toMatch(/ AS "c4"$/);
    const iso = rowSerializer(ROSTER_TABLES.enrollment, undefined, { dateMode: 'iso8601', booleans: 'json', hrefRoots: sharedRoot(ROOT) });
    expect(iso.columns).toContain(`'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`);
    expect(iso.columns).toContain(`WHEN true THEN '"primary":true'`);
  });

  it('writes GUIDRefs between the members the database wrote, leaving out absent parts', () => {
    const s = rowSerializer(ROSTER_TABLES.enrollment, undefined, { dateMode: 'compact', booleans: 'string', hrefRoots: sharedRoot(ROOT) });
    const row = { c0: '"sourcedId":"e\\"1","status":"active"', c1: 'u 1', c2: 'c1', c3: null, c4: null };
    expect(JSON.parse(s.write(row))).toEqual({
      sourcedId: 'e"1',
      status: 'active',
      user: { href: `${ROOT}/users/u%201`, sourcedId: 'u 1', type: 'user' },
      class: { href: `${ROOT}/classes/c1`, sourcedId: 'c1', type: 'class' },
    });
    expect(JSON.parse(s.write({ ...row, c4: '"role":"teacher"' })).role).toBe('teacher');
  });

  it('writes only the selected fields, in the requested order', () => {
    const s = rowSerializer(ROSTER_TABLES.user, ['familyName', 'orgs', 'sourcedId', 'password'], { dateMode: 'compact', booleans: 'string', hrefRoots: sharedRoot(ROOT) });
    expect(s.columns).toBe(
      `NULLIF(concat_ws(',', CASE WHEN t."family_name" <> '' THEN '"familyName":' || to_json(t."family_name")::text END), '') AS "c0", t."org_sourced_ids" AS "c1", ` +
        `NULLIF(concat_ws(',', CASE WHEN t."sourced_id" <> '' THEN '"sourcedId":' || to_json(t."sourced_id")::text END), '') AS "c2"`,
    );
    expect(s.write({ c0: '"familyName":"Doe"', c1: [], c2: '"sourcedId":"u1"' })).toBe('{"familyName":"Doe","sourcedId":"u1"}');
    expect(s.write({ c0: '"familyName":"Doe"', c1: ['o1', 'o2'], c2: '"sourcedId":"u1"' })).toBe(
      `{"familyName":"Doe","orgs":[{"href":"${ROOT}/orgs/o1","sourcedId":"o1","type":"org"},{"href":"${ROOT}/orgs/o2","sourcedId":"o2","type":"org"}],"sourcedId":"u1"}`,
    );
  });

  it('escapes ids for href path segments like the href filter does', () => {
    expect(urlSegment('plain-id_1.2~x')).toBe('plain-id_1.2~x');
    expect(urlSegment('a b/c?d#e%f')).toBe('a%20b%2Fc%3Fd%23e%25f');
  });
});
