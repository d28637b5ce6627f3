import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError, ApiErrorCode } from '@edu/domain';

function flatten(errors: ValidationError[], prefix = ''): { field: string; problems: string[] }[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, problems: Object.values(e.constraints) }] : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** One pipe for every app: whitelist, refuse unknown properties, explicit transforms, our error body. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      const fields = flatten(errors);
      const message = fields.map((f) => `${f.field}: ${f.problems.join('; ')}`).join(' | ') || 'Invalid request';
      return new ApiError(ApiErrorCode.ValidationFailed, message, { fields });
    },
  });
}
