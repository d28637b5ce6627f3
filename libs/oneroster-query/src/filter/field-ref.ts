/**
 * Resolves a (possibly dotted) filter field path against a class's catalog.
 */
import { OneRosterQueryError, excerpt } from '../errors';
import { catalogOf, subFieldsOf, type ClassRef, type OneRosterVersion } from '../model/catalog';
import type { FieldDef, ValueKind } from '../model/field-kinds';
import type { FieldRef, TextMatch } from './ast';

/** A resolved path plus what its literal must look like (enum values and aliases). */
export interface ResolvedField {
  readonly ref: FieldRef;
  readonly enumValues?: readonly string[];
  readonly enumAliases?: Readonly<Record<string, string>>;
  /** v1.2 extensible enumeration: an `ext:<name>` literal is a value of it. */
  readonly extensible?: boolean;
}

function textMatch(valueKind: ValueKind, caseSensitive: boolean): TextMatch {
  return valueKind === 'string' && !caseSensitive ? 'caseInsensitive' : 'exact';
}

/**
 * Resolves `path` for `resource`. Top-level and GUIDRef/UserId sub-field names match
 * case-insensitively and come back in canonical case; metadata keys keep their case.
 * Throws `invalid_filter_field` for unknown or unusable paths.
 */
export function resolveFilterField(resource: ClassRef, path: string, position?: number): ResolvedField {
  const catalog = catalogOf(resource);
  const fail = (why: string): never => {
    throw OneRosterQueryError.filter(
      `Unknown filter field '${excerpt(path)}' for ${catalog.resource}: ${why}`,
      position,
    );
  };
  const dot = path.indexOf('.');
  const baseName = dot < 0 ? path : path.slice(0, dot);
  const rest = dot < 0 ? undefined : path.slice(dot + 1);
  const def = catalog.field(baseName);
  if (!def) return fail('no such field');
  if (!def.filterable) return fail('this field cannot be filtered');

  switch (def.kind) {
    case 'guidRef':
    case 'guidRefList':
    case 'userIds':
    case 'roles':
      return resolveStructured(def, rest, catalog.version, fail);
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
    case 'userProfiles':
    case 'learningObjectives':
    case 'scoreScaleValues':
      return fail('this field cannot be filtered');
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
        ...(def.extensible ? { extensible: true } : {}),
      };
    }
  }
}

/** Where a bare structured name points: a GUIDRef's sourcedId (`school='x'`), a role's role (`roles='teacher'`). */
const BARE_SUBFIELD: Partial<Record<FieldDef['kind'], string>> = {
  guidRef: 'sourcedId',
  guidRefList: 'sourcedId',
  roles: 'role',
};

function resolveStructured(
  def: FieldDef,
  rest: string | undefined,
  version: OneRosterVersion,
  fail: (why: string) => never,
): ResolvedField {
  const subs = subFieldsOf(def.kind, version);
  // `roles.org` is shorthand for `roles.org.sourcedId`, as `school` is for `school.sourcedId`.
  const named = rest !== undefined && def.kind === 'roles' && rest.toLowerCase() === 'org' ? 'org.sourcedId' : rest;
  const subName = named ?? BARE_SUBFIELD[def.kind];
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
    ...(sub.extensible ? { extensible: true } : {}),
  };
}
