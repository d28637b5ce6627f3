import type { ValidationError } from 'class-validator';

export interface FieldProblems {
  field: string;
  problems: string[];
}

/**
 * `dot` paths (`a.0.b`) are what the global pipe reports; `bracket` paths (`messages[3].b`) read
 * better for batch bodies whose items are arrays.
 */
export type FieldPathStyle = 'dot' | 'bracket';

function join(prefix: string, property: string, style: FieldPathStyle): string {
  if (style === 'bracket' && /^\d+$/.test(property)) return `${prefix}[${property}]`;
  return prefix ? `${prefix}.${property}` : property;
}

/** class-validator errors as one entry per field path with its problems. */
export function flattenValidationErrors(
  errors: ValidationError[],
  style: FieldPathStyle = 'dot',
  prefix = '',
): FieldProblems[] {
  return errors.flatMap((e) => {
    const field = join(prefix, e.property, style);
    const own = e.constraints ? [{ field, problems: Object.values(e.constraints) }] : [];
    return [...own, ...flattenValidationErrors(e.children ?? [], style, field)];
  });
}

/** One line naming every field and its problems, for the error message. */
export function describeFieldProblems(fields: FieldProblems[]): string {
  return fields.map((f) => `${f.field}: ${f.problems.join('; ')}`).join(' | ') || 'Invalid request';
}
