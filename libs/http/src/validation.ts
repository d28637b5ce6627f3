import { ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
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

/** One pipe for every app: whitelist, refuse unknown properties, explicit transforms, our error body. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    ...RULES,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      return validationFailed(flattenValidationErrors(errors));
    },
  });
}

/**
 * Validates a body against a DTO class with the pipe's rules, for routes that name fields in
 * bracket style (`messages[3].recipient.primary_email`). Throws 400 `validation_failed`.
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
  const value = plainToInstance(cls, body, { enableImplicitConversion: false });
  const errors = await validate(value, { ...RULES, forbidUnknownValues: true });
  if (errors.length) {
    throw validationFailed(flattenValidationErrors(errors, style));
  }
  return value;
}
