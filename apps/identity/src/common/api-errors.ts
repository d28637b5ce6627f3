import { QueryFailedError } from 'typeorm';
import { ApiError, ApiErrorCode } from '@edu/domain';

export interface FieldProblem {
  field: string;
  problems: string[];
}

/** 400 validation_failed in the same shape the global ValidationPipe uses: `{fields: [{field, problems}]}`. */
export function validationFailed(fields: FieldProblem[]): ApiError {
  const message = fields.map((f) => `${f.field}: ${f.problems.join('; ')}`).join(' | ');
  return new ApiError(ApiErrorCode.ValidationFailed, message, { fields });
}

export function fieldError(field: string, problem: string): ApiError {
  return validationFailed([{ field, problems: [problem] }]);
}

export function conflict(message: string): ApiError {
  return new ApiError(ApiErrorCode.Conflict, message);
}

/** PostgreSQL unique_violation (a race lost against a concurrent write of the same key). */
export function isUniqueViolation(err: unknown): boolean {
  return (
    err instanceof QueryFailedError &&
    (err as QueryFailedError & { driverError?: { code?: string } }).driverError?.code === '23505'
  );
}

/** Runs a write; a unique violation becomes 409 with `message`. */
export async function uniqueOr409<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(message);
    throw err;
  }
}
