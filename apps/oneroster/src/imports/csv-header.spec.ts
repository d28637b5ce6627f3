import { expectedColumns, readCsvHeader } from './csv-header';
import { FILE_LAYOUTS, standardHeaders } from './csv-layout';
import { IssueLog } from './import-issues';

const courses = FILE_LAYOUTS.courses;
const read = (names: string[], delta = false) => {
  const issues = new IssueLog();
  const header = readCsvHeader(names, courses, delta, issues);
  return { header, issues };
};

describe('readCsvHeader', () => {
  it('maps every column to its cell, in any order, with metadata columns by their key', () => {
    const names = [...standardHeaders(courses)].reverse();
    const { header, issues } = read([' metadata.region ', ...names]);
    expect(issues.errors).toEqual([]);
    expect(issues.warnings).toEqual([]);
    expect(header).toEqual({
      width: names.length + 1,
      sourcedId: names.length,
      status: names.length - 1,
      modified: names.length - 2,
      metadata: [['region', 0]],
      columns: courses.columns.map((c) => names.indexOf(c.name) + 1),
    });
  });

  it('reads a missing optional column as empty (-1) with a warning; status and dateLastModified are optional in bulk files', () => {
    const { header, issues } = read(['sourcedId', 'title', 'orgSourcedId']);
    expect(issues.errors).toEqual([]);
    expect(header).toMatchObject({ width: 3, sourcedId: 0, status: -1, modified: -1, metadata: [] });
    expect(header!.columns).toEqual(
      courses.columns.map((c) => (c.name === 'title' ? 1 : c.name === 'orgSourcedId' ? 2 : -1)),
    );
    expect(issues.warnings.map((w) => w.column)).toEqual([
      'status',
      'dateLastModified',
      'schoolYearSourcedId',
      'courseCode',
      'grades',
      'subjects',
      'subjectCodes',
    ]);
    expect(issues.warnings[0]).toEqual({
      file: 'courses.csv',
      line: 1,
      column: 'status',
      message: "column 'status' is missing; read as empty",
    });
  });

  it('refuses repeated, unknown (with a hint) and missing required columns, in that order; delta files need status and dateLastModified', () => {
    const { header, issues } = read(['sourcedId', 'title', 'title', 'titles', 'nickName', 'metadata.'], true);
    expect(header).toBeUndefined();
    expect(issues.errors).toEqual([
      { file: 'courses.csv', line: 1, column: 'title', message: "column 'title' appears twice" },
      {
        file: 'courses.csv',
        line: 1,
        column: 'titles',
        message: "unknown column 'titles' (did you mean 'title'?); extension columns must be named 'metadata.<name>'",
      },
      {
        file: 'courses.csv',
        line: 1,
        column: 'nickName',
        message: "unknown column 'nickName'; extension columns must be named 'metadata.<name>'",
      },
      {
        file: 'courses.csv',
        line: 1,
        column: 'metadata.',
        message: "unknown column 'metadata.'; extension columns must be named 'metadata.<name>'",
      },
      { file: 'courses.csv', line: 1, column: 'status', message: "missing column 'status' (required in delta files)" },
      {
        file: 'courses.csv',
        line: 1,
        column: 'dateLastModified',
        message: "missing column 'dateLastModified' (required in delta files)",
      },
      { file: 'courses.csv', line: 1, column: 'orgSourcedId', message: "missing column 'orgSourcedId'" },
    ]);
  });

  it('lists the expected columns: sourcedId always required, status and dateLastModified only in delta files', () => {
    const bulk = expectedColumns(courses, false);
    expect(bulk.map((c) => c.name)).toEqual(standardHeaders(courses));
    expect(bulk.filter((c) => c.required).map((c) => c.name)).toEqual(['sourcedId', 'title', 'orgSourcedId']);
    expect(
      expectedColumns(courses, true)
        .filter((c) => c.required)
        .map((c) => c.name),
    ).toEqual(['sourcedId', 'status', 'dateLastModified', 'title', 'orgSourcedId']);
  });
});
