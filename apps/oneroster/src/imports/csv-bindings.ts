/**
 * The CSV bindings the importer reads, as data; a package's manifest (`oneroster.version`)
 * chooses one. Each names its files in import order (a file after those it references), the
 * order they are merged in, their layouts and cross-field rules, and the folds of its record
 * files into their owners.
 */
import { CROSS_FIELD_RULES, CROSS_FIELD_RULES_V1P2, type FileRuleSet } from './cross-field-rules';
import { FILE_LAYOUTS, ROSTER_FILE_TYPES, V1P2_FILE_TYPES, type FileLayout, type RosterFileType } from './csv-layout';
import { FILE_LAYOUTS_V1P2 } from './csv-layout-v1p2';
import { USER_FOLDS } from './folds-users';
import { GRADEBOOK_FOLDS } from './folds-gradebook';
import type { FoldSpec } from './fold-sql';

export const CSV_VERSIONS = ['1.1', '1.2'] as const;
export type CsvVersion = (typeof CSV_VERSIONS)[number];

export interface CsvBinding {
  readonly version: CsvVersion;
  /** The binding's files in import order: each after the files it references. */
  readonly files: readonly RosterFileType[];
  /**
   * The order files are merged in: the import order, except that record files whose folds fill
   * their owner's staging (`filledByFolds`) come before the owner.
   */
  readonly mergeOrder: readonly RosterFileType[];
  readonly layouts: Readonly<Partial<Record<RosterFileType, FileLayout>>>;
  readonly rules: FileRuleSet;
  readonly folds: readonly FoldSpec[];
  /** Manifest keys also accepted with a trailing `*` (the spec table marks the new files so; reference v1.2 §10.1). */
  readonly starredKeys: readonly string[];
}

const V1P1: CsvBinding = {
  version: '1.1',
  files: ROSTER_FILE_TYPES,
  mergeOrder: ROSTER_FILE_TYPES,
  layouts: FILE_LAYOUTS,
  rules: CROSS_FIELD_RULES,
  folds: [],
  starredKeys: [],
};

const USER_RECORDS: readonly RosterFileType[] = ['userProfiles', 'roles', 'userResources'];
const NEW_IN_V1P2 = V1P2_FILE_TYPES.filter((t) => !(ROSTER_FILE_TYPES as readonly string[]).includes(t));

const V1P2: CsvBinding = {
  version: '1.2',
  files: V1P2_FILE_TYPES,
  mergeOrder: V1P2_FILE_TYPES.filter((t) => !USER_RECORDS.includes(t)).flatMap((t) =>
    t === 'users' ? [...USER_RECORDS, t] : [t],
  ),
  layouts: FILE_LAYOUTS_V1P2,
  rules: CROSS_FIELD_RULES_V1P2,
  folds: [...USER_FOLDS, ...GRADEBOOK_FOLDS],
  starredKeys: NEW_IN_V1P2.map((t) => `file.${t}`),
};

export const CSV_BINDINGS: Readonly<Record<CsvVersion, CsvBinding>> = { '1.1': V1P1, '1.2': V1P2 };

/** A file's layout in a binding (a programming error for a file the binding lacks). */
export function layoutOf(binding: CsvBinding, type: RosterFileType): FileLayout {
  const layout = binding.layouts[type];
  if (!layout) throw new TypeError(`the OneRoster ${binding.version} CSV binding has no ${type} file`);
  return layout;
}
