import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { flattenValidationErrors, type FieldPathStyle } from '@edu/http';
import type { FieldProblem } from '../api-errors';
import { validationFailed } from '../api-errors';

const INDEXED = /^\[(\d+)\] (.*)$/s;

/**
 * class-validator errors as `{field, problems}` (flattenValidationErrors of libs/http). Dot style
 * (`a.b.0.c`) matches the global ValidationPipe; bracket style (`a.b[0].c`) reads better in CLI
 * reports, and there a problem of the form `[i] text` (list rules) moves the index into the field:
 * `redirect_uris[0]: must be a URL`.
 */
function fieldProblems(errors: ValidationError[], prefix: string, style: FieldPathStyle): FieldProblem[] {
  const fields = flattenValidationErrors(errors, style, prefix);
  if (style !== 'bracket') return fields;
  return fields.flatMap(({ field, problems }) => {
    const own: FieldProblem[] = [];
    for (const text of problems) {
      const indexed = INDEXED.exec(text);
      const f = indexed ? `${field}[${indexed[1]}]` : field;
      const problem = indexed ? indexed[2] : text;
      const existing = own.find((p) => p.field === f);
      if (existing) existing.problems.push(problem);
      else own.push({ field: f, problems: [problem] });
    }
    return own;
  });
}

/** Validates a plain object against a DTO class with the global pipe's rules; returns the problems. */
export async function dtoProblems<T extends object>(
  cls: new () => T,
  plain: unknown,
  prefix = '',
  style: FieldPathStyle = 'dot',
): Promise<{ value: T; problems: FieldProblem[] }> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return {
      value: undefined as unknown as T,
      problems: [{ field: prefix || '(record)', problems: ['must be an object'] }],
    };
  }
  const value = plainToInstance(cls, plain, { enableImplicitConversion: false });
  const errors = await validate(value, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  return { value, problems: fieldProblems(errors, prefix, style) };
}

/** Same as dtoProblems, throwing 400 validation_failed when anything is wrong. */
export async function validateDto<T extends object>(cls: new () => T, plain: unknown): Promise<T> {
  const { value, problems } = await dtoProblems(cls, plain);
  if (problems.length) throw validationFailed(problems);
  return value;
}
