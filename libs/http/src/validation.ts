import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { ApiError, ApiErrorCode } from '@edu/domain';
import './constraint-instances';
import { describeFieldProblems, flattenValidationErrors, type FieldPathStyle, type FieldProblems } from './field-paths';

const RULES = { whitelist: true, forbidNonWhitelisted: true } as const;

/** Most fields one 400 lists: thousands of bad items must not make a response of megabytes. */
export const MAX_REPORTED_FIELDS = 100;

function validationFailed(fields: FieldProblems[]): ApiError {
  const shown = fields.slice(0, MAX_REPORTED_FIELDS);
  const more = fields.length - shown.length;
  const message = describeFieldProblems(shown) + (more > 0 ? ` | and ${more} more fields` : '');
  return new ApiError(ApiErrorCode.ValidationFailed, message, { fields: shown });
}

const BRACKET_PATHS = Symbol('bracketFieldPaths');

/**
 * A request body DTO whose problems name fields in bracket style (`messages[3].recipient.primary_email`):
 * bulk bodies, where an index reads better than a dotted number. The global pipe reads it.
 */
export function BracketFieldPaths(): ClassDecorator {
  return (target) => Reflect.defineMetadata(BRACKET_PATHS, true, target);
}

/** The global pipe: dot-style field paths, or bracket style for a body DTO marked `@BracketFieldPaths()`. */
class EduValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const cls = metadata.metatype as (new () => object) | undefined;
    if (metadata.type === 'body' && cls && Reflect.getMetadata(BRACKET_PATHS, cls) === true)
      return validateBody(cls, value, 'bracket');
    return super.transform(value, metadata);
  }
}

/** One pipe for every app: whitelist, refuse unknown properties, explicit transforms, our error body. */
export function createValidationPipe(): ValidationPipe {
  return new EduValidationPipe({
    ...RULES,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      return validationFailed(flattenValidationErrors(errors));
    },
  });
}

const INDEXED = /^\[(\d+)\] (.*)$/s;

/**
 * class-validator errors as `{field, problems}`. Dot style (`a.b.0.c`) is the global pipe's;
 * bracket style (`a.b[0].c`) reads better in bulk bodies and CLI reports, and there a problem of
 * the form `[i] text` (list rules) moves the index into the field: `redirect_uris[0]: must be a URL`.
 */
function fieldProblems(errors: ValidationError[], prefix: string, style: FieldPathStyle): FieldProblems[] {
  const fields = flattenValidationErrors(errors, style, prefix);
  if (style !== 'bracket') return fields;
  return fields.flatMap(({ field, problems }) => {
    const own: FieldProblems[] = [];
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

/**
 * Validates a plain object against a DTO class with the global pipe's rules and returns the
 * problems (for callers that collect them, like a file of many records), fields named under `prefix`.
 */
export async function dtoProblems<T extends object>(
  cls: new () => T,
  plain: unknown,
  prefix = '',
  style: FieldPathStyle = 'dot',
): Promise<{ value: T; problems: FieldProblems[] }> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return {
      value: undefined as unknown as T,
      problems: [{ field: prefix || '(record)', problems: ['must be an object'] }],
    };
  }
  const value = plainToInstance(cls, plain, { enableImplicitConversion: false });
  const errors = await validate(value, { ...RULES, forbidUnknownValues: true });
  return { value, problems: fieldProblems(errors, prefix, style) };
}

/** Same as dtoProblems, throwing 400 `validation_failed` (at most MAX_REPORTED_FIELDS fields) when anything is wrong. */
export async function validateDto<T extends object>(
  cls: new () => T,
  plain: unknown,
  style: FieldPathStyle = 'dot',
): Promise<T> {
  const { value, problems } = await dtoProblems(cls, plain, '', style);
  if (problems.length) throw validationFailed(problems);
  return value;
}

/**
 * A request body against a DTO class, for routes that name fields in bracket style
 * (`messages[3].recipient.primary_email`). Throws 400 `validation_failed`.
 */
export async function validateBody<T extends object>(
  cls: new () => T,
  body: unknown,
  style: FieldPathStyle = 'bracket',
): Promise<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(ApiErrorCode.ValidationFailed, 'The request body must be a JSON object', {
      fields: [{ field: '(body)', problems: ['must be an object'] }],
    });
  }
  return validateDto(cls, body, style);
}
