/**
 * Resolves a (possibly dotted) filter field path against a class's catalog.
 */
import { OneRosterQueryError, excerpt } from '../errors';
import { getCatalog, subFieldsOf, type OneRosterResource } from '../model/catalog';
import type { FieldDef, ValueKind } from '../model/field-kinds';
import type { FieldRef, TextMatch } from './ast';

/** A resolved path plus what its literal must look like (enum values and aliases). */
export interface ResolvedField {
  readonly ref: FieldRef;
  readonly enumValues?: readonly string[];
  readonly enumAliases?: Readonly<Record<string, string>>;
}

function textMatch(valueKind: ValueKind, caseSensitive: boolean): TextMatch {
  return valueKind === 'string' && !caseSensitive ? 'caseInsensitive' : 'exact';
}

/**
 * Resolves `path` for `resource`. Top-level and GUIDRef/UserId sub-field names match
 * case-insensitively and come back in canonical case; metadata keys keep their case.
 * Throws `invalid_filter_field` for unknown or unusable paths.
 */
export function resolveFilterField(resource: OneRosterResource, path: string, position?: number): ResolvedField {
  const fail = (why: string): never => {
    throw OneRosterQueryError.filter(`Unknown filter field '${excerpt(path)}' for ${resource}: ${why}`, position);
  };
  const dot = path.indexOf('.');
  const baseName = dot < 0 ? path : path.slice(0, dot);
  const rest = dot < 0 ? undefined : path.slice(dot + 1);
  const def = getCatalog(resource).field(baseName);
  if (!def) return fail('no such field');
  if (!def.filterable) return fail('this field cannot be filtered');

  switch (def.kind) {
    case 'guidRef':
    case 'guidRefList':
    case 'userIds':
      return resolveStructured(def, rest, fail);
    case 'metadata':
      if (rest === undefined) return fail("name a metadata key, e.g. 'metadata.key'");
      if (rest.split('.').some((segment) => segment === '')) return fail('empty segment in metadata key');
      return {
        ref: {
          path: `${def.name}.${rest}`,
          field: def.name,
          subField: rest,
          fieldKind: def.kind,
          valueKind: 'string',
          multi: false,
          textMatch: 'caseInsensitive',
        },
      };
    default: {
      if (rest !== undefined) return fail(`'${def.name}' has no sub-fields`);
      const valueKind: ValueKind = def.kind === 'stringList' ? 'string' : def.kind;
      return {
        ref: {
          path: def.name,
          field: def.name,
          fieldKind: def.kind,
          valueKind,
          multi: def.kind === 'stringList',
          textMatch: textMatch(valueKind, def.caseSensitive),
        },
        ...(def.values ? { enumValues: def.values } : {}),
        ...(def.aliases ? { enumAliases: def.aliases } : {}),
      };
    }
  }
}

function resolveStructured(def: FieldDef, rest: string | undefined, fail: (why: string) => never): ResolvedField {
  const subs = subFieldsOf(def.kind);
  // A bare GUIDRef name is shorthand for its sourcedId (`school='x'` = `school.sourcedId='x'`).
  const subName = rest ?? (def.kind === 'userIds' ? undefined : 'sourcedId');
  if (subName === undefined) return fail(`name a sub-field: ${subs.map((s) => `${def.name}.${s.name}`).join(', ')}`);
  const sub = subs.find((s) => s.name.toLowerCase() === subName.toLowerCase());
  if (!sub) return fail(`sub-field must be one of ${subs.map((s) => s.name).join(', ')}`);
  return {
    ref: {
      path: `${def.name}.${sub.name}`,
      field: def.name,
      subField: sub.name,
      fieldKind: def.kind,
      valueKind: sub.valueKind,
      multi: def.kind !== 'guidRef',
      textMatch: textMatch(sub.valueKind, sub.caseSensitive),
    },
    ...(sub.values ? { enumValues: sub.values } : {}),
  };
}
