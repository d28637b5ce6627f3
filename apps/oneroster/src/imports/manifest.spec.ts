import { Readable } from 'node:stream';
import { IssueLog } from './import-issues';
import { manifestMode, readManifest } from './manifest';

const read = async (text: string) => {
  const issues = new IssueLog();
  const manifest = await readManifest(Readable.from([Buffer.from(text)]), issues);
  return { manifest, issues };
};

const BASE = 'propertyName,value\nmanifest.version,1.0\noneroster.version,1.1\n';

describe('manifest.csv', () => {
  it('reads file modes (case-insensitive), absent by default, and the source', async () => {
    const { manifest, issues } = await read(
      `${BASE}file.users,BULK\nfile.enrollments,delta\nfile.orgs,absent\nsource.systemName,My SIS\n`,
    );
    expect(issues.errors).toEqual([]);
    expect(manifest!.files).toMatchObject({ users: 'bulk', enrollments: 'delta', orgs: 'absent', classes: 'absent' });
    expect(manifest!.systemName).toBe('My SIS');
    expect(manifestMode(manifest!)).toBe('mixed');
    expect(manifest!.lines['file.users']).toBe(4);
  });

  it('names misspelt keys with a suggestion, bad modes, repeats and versions', async () => {
    const { issues } = await read(
      'propertyName,value\nmanifest.version,1.0\noneroster.version,1.0\nfiel.demographics,bulk\nfile.users,full\nfile.users,bulk\n',
    );
    expect(issues.errors).toEqual([
      {
        file: 'manifest.csv',
        line: 4,
        column: 'propertyName',
        message: "unknown manifest key 'fiel.demographics' (did you mean 'file.demographics'?)",
      },
      {
        file: 'manifest.csv',
        line: 5,
        column: 'value',
        message: "'full' is not a file mode (absent, bulk, delta) for 'file.users'",
      },
      { file: 'manifest.csv', line: 6, column: 'propertyName', message: "'file.users' is repeated (first on line 5)" },
      {
        file: 'manifest.csv',
        line: 3,
        column: 'value',
        message: "'oneroster.version' is '1.0'; this importer reads '1.1' or '1.2'",
      },
    ]);
  });

  it("chooses the binding by oneroster.version: 1.2 adds eight files, their keys also with a trailing '*'", async () => {
    const { manifest, issues } = await read(
      'propertyName,value\nmanifest.version,1.0\noneroster.version,1.2\nfile.users,bulk\nfile.roles*,bulk\nfile.userProfiles,delta\nfile.users*,bulk\n',
    );
    expect(manifest!.binding.version).toBe('1.2');
    expect(manifest!.files).toMatchObject({
      users: 'bulk',
      roles: 'bulk',
      userProfiles: 'delta',
      scoreScales: 'absent',
    });
    expect(manifest!.lines['file.roles']).toBe(5);
    // Only the new files are starred in the spec table.
    expect(issues.errors.map((e) => e.message)).toEqual([expect.stringMatching(/unknown manifest key 'file.users\*'/)]);
    const old = await read(`${BASE}file.roles,bulk\n`);
    expect(old.manifest!.binding.version).toBe('1.1');
    expect(old.issues.errors.map((e) => e.message)).toEqual([
      "unknown manifest key 'file.roles' (a file of the OneRoster 1.2 binding; this manifest says 1.1)",
    ]);
  });

  it('reads the gradebook and resources files like the others; requires the header and versions', async () => {
    const ok = await read(`\ufeff${BASE}file.results,bulk\nfile.classResources,Delta\nfile.categories,absent\n`);
    expect(ok.issues.errors).toEqual([]);
    expect(ok.issues.warnings).toEqual([]);
    expect(ok.manifest!.files).toMatchObject({
      results: 'bulk',
      classResources: 'delta',
      categories: 'absent',
      lineItems: 'absent',
      users: 'absent',
    });
    const bad = await read('key,value\n');
    expect(bad.manifest).toBeUndefined();
    expect(bad.issues.errors[0]!.message).toMatch(/propertyName,value/);
    const missing = await read('propertyName,value\nfile.users,bulk\n');
    expect(missing.issues.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/'manifest.version' is missing/),
      expect.stringMatching(/'oneroster.version' is missing/),
    ]);
  });

  it('calls an import bulk, delta, or (nothing listed) an empty delta', async () => {
    expect(manifestMode((await read(`${BASE}file.users,bulk\nfile.orgs,bulk\n`)).manifest!)).toBe('bulk');
    expect(manifestMode((await read(`${BASE}file.users,delta\n`)).manifest!)).toBe('delta');
    expect(manifestMode((await read(BASE)).manifest!)).toBe('delta');
  });
});
