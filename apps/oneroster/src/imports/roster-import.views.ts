import type { RosterImportFileCounts, RosterImportIssue } from '@edu/persistence';
import type { RosterImportRow } from './roster-import.repository';
import type { ImportReport } from './roster-importer';

/** The operator's view of one import. */
export interface RosterImportView {
  id: string;
  tenant_id: string;
  status: 'running' | 'succeeded' | 'failed';
  mode: string | null;
  source: string;
  started_at: string;
  finished_at: string | null;
  data_version: string | null;
  counts: Record<string, RosterImportFileCounts>;
  errors: RosterImportIssue[];
  /** Errors found; more than listed when the cap was reached. */
  error_count: number;
  warnings: RosterImportIssue[];
}

export function toImportView(row: RosterImportRow): RosterImportView {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    status: row.status,
    mode: row.mode,
    source: row.source,
    started_at: row.started_at.toISOString(),
    finished_at: row.finished_at ? row.finished_at.toISOString() : null,
    data_version: row.data_version,
    counts: row.counts,
    errors: row.errors,
    error_count: row.errors.length,
    warnings: row.warnings,
  };
}

export function reportView(r: ImportReport, id: string): RosterImportView {
  return {
    id,
    tenant_id: r.tenantId,
    status: r.status,
    mode: r.mode,
    source: r.source,
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt.toISOString(),
    data_version: r.dataVersion,
    counts: r.counts,
    errors: r.errors,
    error_count: r.errorCount,
    warnings: r.warnings,
  };
}

/** Errors listed one per imsx status entry in a refused import's response. */
const MAX_STATUS_ENTRIES = 100;

/**
 * imsx status payload of a refused import (OneRoster binding, reference §8): one entry per
 * error (field name `file:line:column`), plus the import itself.
 */
export function refusedImportPayload(view: RosterImportView, requestId: string): Record<string, unknown> {
  const entries = view.errors.slice(0, MAX_STATUS_ENTRIES).map((e) => ({
    imsx_codeMajor: 'failure',
    imsx_severity: 'error',
    imsx_messageRefIdentifier: requestId,
    imsx_description: `${e.file}${e.line ? ` line ${e.line}` : ''}${e.column ? `, column ${e.column}` : ''}: ${e.message}`,
    imsx_CodeMinor: {
      imsx_codeMinorField: [
        {
          imsx_codeMinorFieldName:
            [e.file, e.line, e.column].filter((p) => p !== '' && p !== 0).join(':') || 'TargetEndSystem',
          imsx_codeMinorFieldValue: 'invaliddata',
        },
      ],
    },
  }));
  return { statusInfoSet: entries, import: view };
}
