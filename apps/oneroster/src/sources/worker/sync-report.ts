import type { RosterImportFileCounts, RosterSyncIssue, RosterSyncTypeCounts } from '@edu/persistence';
import type { ImportIssue } from '../../imports/import-issues';
import type { ImportReport } from '../../imports/roster-importer';
import { SourceError } from './rest/guarded-http';

/** The importer's counts per CSV file as counts per object type. */
export function countsByType(counts: Record<string, RosterImportFileCounts>): Record<string, RosterSyncTypeCounts> {
  const out: Record<string, RosterSyncTypeCounts> = {};
  for (const [file, c] of Object.entries(counts))
    out[file.replace(/\.csv$/, '')] = {
      created: c.inserted,
      updated: c.updated,
      deleted: c.tombstoned,
      unchanged: c.unchanged,
    };
  return out;
}

export function importIssue(i: ImportIssue): RosterSyncIssue {
  return { message: i.message, file: i.file, line: i.line, column: i.column };
}

/** A failure while reading a source, for the report (URL and field when known). */
export function sourceIssue(err: SourceError): RosterSyncIssue {
  return { message: err.message, ...(err.url ? { url: err.url } : {}), ...(err.field ? { field: err.field } : {}) };
}

/** Errors of a refused import, with the count beyond the listed ones. */
export function importErrors(report: ImportReport): RosterSyncIssue[] {
  const listed = report.errors.map(importIssue);
  const more = report.errorCount - listed.length;
  return more > 0 ? [...listed, { message: `and ${more} more errors` }] : listed;
}
