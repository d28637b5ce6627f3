import type { ClientBase } from 'pg';
import { CSV_BINDINGS } from './csv-bindings';
import { readCsvHeader } from './csv-header';
import { FILE_LAYOUTS, ROSTER_FILE_TYPES, type RosterFileType } from './csv-layout';
import { IssueLog } from './import-issues';
import type { FileMode } from './manifest';
import { RecordReader } from './record-reader';
import { FileReferences } from './reference-checks';
import { ReferenceIndex } from './reference-index';
import { LINE, METADATA, MODIFIED, RowLayout, SOURCED_ID, STATUS, TOMBSTONE } from './row-layout';

/** A reader of users.csv over a header, every other type bulk with `known` ids. */
function usersReader(
  header: string[],
  mode: FileMode = 'bulk',
  known: Partial<Record<RosterFileType, string[]>> = { orgs: ['org-1', 'org-d'] },
) {
  const modes = Object.fromEntries(ROSTER_FILE_TYPES.map((t) => [t, t === 'users' ? mode : 'bulk'])) as Record<
    RosterFileType,
    FileMode
  >;
  const refs = new ReferenceIndex({} as ClientBase, 'tenant', modes, CSV_BINDINGS['1.1']);
  for (const [type, ids] of Object.entries(known))
    for (const id of ids) refs.add(type as RosterFileType, id, id === 'org-d' ? 'district' : '');
  const issues = new IssueLog();
  const rl = new RowLayout(FILE_LAYOUTS.users, false);
  const row = rl.newRow();
  const ids = new FileReferences(rl, refs, issues, mode === 'delta');
  const reader = new RecordReader(
    row,
    rl,
    readCsvHeader(header, FILE_LAYOUTS.users, mode === 'delta', issues)!,
    mode === 'delta',
    ids,
    issues,
    refs,
  );
  const read = (cells: string[], line: number) => {
    row[SOURCED_ID] = undefined;
    const ok = reader.read(cells, line);
    if (typeof row[SOURCED_ID] === 'string') ids.register(row);
    return ok;
  };
  return { read, row, rl, issues, reader, ids };
}

const HEADER = [
  'sourcedId',
  'status',
  'dateLastModified',
  'enabledUser',
  'orgSourcedIds',
  'role',
  'username',
  'givenName',
  'familyName',
  'grades',
  'userIds',
  'password',
  'metadata.house',
];

describe('RecordReader', () => {
  it('stages each value in its named slot, empty list kinds as empty arrays, and derives role_group', () => {
    const { read, row, rl, issues } = usersReader(HEADER);
    expect(
      read(['u1', '', '', 'TRUE', 'org-1', 'Teacher', 'tt', 'Tess', 'Ong', '', '{SIS:1}', 'secret', 'Blue'], 2),
    ).toBe(true);
    expect(issues.errors).toEqual([]);
    expect([row[LINE], row[TOMBSTONE], row[SOURCED_ID], row[STATUS], row[MODIFIED], row[METADATA]]).toEqual([
      2,
      false,
      'u1',
      'active',
      null,
      '{"house":"Blue"}',
    ]);
    const at = (db: string) => row[rl.slot(db)];
    expect([
      at('enabled_user'),
      at('org_sourced_ids'),
      at('role'),
      at('grades'),
      at('user_ids'),
      at('agent_sourced_ids'),
      at('email'),
    ]).toEqual([true, '{"org-1"}', 'teacher', '{}', '[{"type":"SIS","identifier":"1"}]', '{}', null]);
    expect(at('role_group')).toBe('staff');
    expect(row).not.toContain('secret');
  });

  it('derives the v1.2 view of a v1.1 row: a primary role per org in order, administrators by org type, the first org primary', () => {
    const { read, row, rl } = usersReader(HEADER);
    expect(read(['u2', '', '', 'true', 'org-d,org-1', 'Administrator', 'a', 'A', 'B', '', '', '', ''], 3)).toBe(true);
    expect(JSON.parse(row[rl.slot('roles')] as string)).toEqual([
      { roleType: 'primary', role: 'districtAdministrator', org: 'org-d' },
      { roleType: 'primary', role: 'siteAdministrator', org: 'org-1' },
    ]);
    expect(row[rl.slot('primary_org_sourced_id')]).toBe('org-d');
    expect(read(['u3', '', '', 'true', 'org-1', 'parent', 'p', 'P', 'Q', '', '', '', ''], 4)).toBe(true);
    expect(JSON.parse(row[rl.slot('roles')] as string)).toEqual([
      { roleType: 'primary', role: 'parent', org: 'org-1' },
    ]);
  });

  it("reports every bad cell of a record with its column, in the binding's column order, and stores null for it", () => {
    const { read, row, rl, issues } = usersReader(HEADER);
    expect(
      read(['u1', 'gone', 'soon', 'yes', 'org-1,org-9', 'wizard', '', 'Tess', 'Ong', '7,Year 9', 'x', '', ''], 5),
    ).toBe(false);
    expect(issues.errors.map((e) => `${e.line}:${e.column} ${e.message}`)).toEqual([
      "5:status 'gone' is not a status (active, tobedeleted)",
      "5:dateLastModified 'soon' is not an ISO 8601 datetime (e.g. 2024-08-20T14:03:11.000Z)",
      "5:enabledUser enabledUser 'yes' is not a boolean (true, false)",
      "5:orgSourcedIds 'org-9' is not a known org sourcedId (looked in orgs.csv)",
      "5:role role 'wizard' is not one of administrator, aide, guardian, parent, proctor, relative, student, teacher",
      '5:username username is required',
      "5:userIds userIds 'x' is not a list of {type:identifier} items",
      "5:grades grades 'Year 9' is not a CEDS grade (IT, PR, PK, TK, KG, 01, 02, 03, 04, 05, 06, 07, 08, 09, 10, 11, 12, 13, PS, UG, Other)",
    ]);
    expect([row[rl.slot('role')], row[rl.slot('role_group')], row[rl.slot('grades')]]).toEqual([null, null, null]);
  });

  it('refuses rows of the wrong width, missing, bad and repeated sourcedIds, without staging their id', () => {
    const { read, row, issues } = usersReader([
      'sourcedId',
      'enabledUser',
      'orgSourcedIds',
      'role',
      'username',
      'givenName',
      'familyName',
    ]);
    const user = (id: string) => [id, 'true', 'org-1', 'student', 'u', 'G', 'F'];
    expect(read(user('u1'), 2)).toBe(true);
    expect(read(['u2'], 3)).toBe(false);
    expect(read(user(' '), 4)).toBe(false);
    expect(read(user('a\u0001'), 5)).toBe(false);
    expect(read(user('u1'), 6)).toBe(false);
    expect(row[SOURCED_ID]).toBeUndefined();
    expect(issues.errors.map((e) => `${e.line}:${e.column} ${e.message}`)).toEqual([
      '3: the row has 1 cells but the header has 7',
      '4:sourcedId sourcedId is required',
      '5:sourcedId sourcedId contains a control character',
      "6:sourcedId duplicate sourcedId 'u1' (first on line 2)",
    ]);
  });

  it('delta files: status and dateLastModified are required; a tombstone only names its record and is counted', () => {
    const { read, row, rl, issues, reader } = usersReader(HEADER, 'delta');
    expect(read(['u1', 'tobedeleted', '2025-01-02T03:04:05Z', '', '', '', '', '', '', '', '', '', 'x'], 2)).toBe(true);
    expect(row[TOMBSTONE]).toBe(true);
    expect(row[MODIFIED]).toBe('2025-01-02T03:04:05.000Z');
    expect(row.slice(METADATA, rl.width).every((v) => v === null)).toBe(true);
    expect(read(['u2', '', '', 'true', 'org-1', 'student', 'u', 'G', 'F', '', '', '', ''], 3)).toBe(false);
    expect(issues.errors.map((e) => e.message)).toEqual([
      'status is required in delta files',
      'dateLastModified is required in delta files',
    ]);
    expect(reader.tombstones).toBe(1);
  });
});
