/**
 * Building blocks of the field catalogs: one `FieldDef` per field, frozen, with the defaults of
 * the query language (scalar fields sort, every field filters, text compares case-insensitively).
 */
import { STATUS_ALIASES, STATUS_TYPES } from './enums';
import { SCALAR_KINDS, type FieldDef, type FieldKind } from './field-kinds';

export interface FieldOptions {
  readonly values?: readonly string[];
  readonly aliases?: Readonly<Record<string, string>>;
  readonly extensible?: boolean;
  readonly caseSensitive?: boolean;
  readonly filterable?: boolean;
  readonly sortable?: boolean;
}

export function field(name: string, kind: FieldKind, options: FieldOptions = {}): FieldDef {
  const scalar = SCALAR_KINDS.includes(kind);
  const def: FieldDef = {
    name,
    kind,
    sortable: options.sortable ?? scalar,
    filterable: options.filterable ?? true,
    caseSensitive: options.caseSensitive ?? false,
    ...(options.values ? { values: options.values } : {}),
    ...(options.aliases ? { aliases: options.aliases } : {}),
    ...(options.extensible ? { extensible: true } : {}),
  };
  return Object.freeze(def);
}

export const str = (name: string, options?: FieldOptions): FieldDef => field(name, 'string', options);
export const enumOf = (name: string, values: readonly string[], aliases?: Readonly<Record<string, string>>): FieldDef =>
  field(name, 'enum', { values, ...(aliases ? { aliases } : {}) });
/** A v1.2 extensible enumeration: the listed values or `ext:<name>`. */
export const extEnumOf = (name: string, values: readonly string[]): FieldDef =>
  field(name, 'enum', { values, extensible: true });
export const date = (name: string): FieldDef => field(name, 'date');
export const datetime = (name: string): FieldDef => field(name, 'datetime');
export const num = (name: string): FieldDef => field(name, 'number');
export const bool = (name: string): FieldDef => field(name, 'boolean');
export const list = (name: string): FieldDef => field(name, 'stringList');
export const ref = (name: string): FieldDef => field(name, 'guidRef');
export const refs = (name: string): FieldDef => field(name, 'guidRefList');
/** Structured v1.2 lists that are written but not filtered or sorted on. */
export const opaque = (name: string, kind: FieldKind): FieldDef =>
  field(name, kind, { filterable: false, sortable: false });

/** Base fields present on every class (reference §3.1; v1.2 §4.1). */
export const BASE_FIELDS: readonly FieldDef[] = [
  str('sourcedId', { caseSensitive: true }),
  enumOf('status', STATUS_TYPES, STATUS_ALIASES),
  field('dateLastModified', 'datetime'),
  field('metadata', 'metadata'),
];
