import { ApiError, ApiErrorCode } from '@edu/domain';

const REALM = 'edu-platform';

/** 401: no usable token. RFC 6750 §3: no error attribute when the request had no credentials. */
export function invalidToken(description: string, hadToken: boolean): ApiError {
  const challenge = hadToken
    ? `Bearer realm="${REALM}", error="invalid_token", error_description="${description.replace(/"/g, "'")}"`
    : `Bearer realm="${REALM}"`;
  return new ApiError(ApiErrorCode.InvalidToken, description, { wwwAuthenticate: challenge });
}

/** 403: valid token without any of the scopes the route accepts. */
export function insufficientScope(accepted: string[]): ApiError {
  return new ApiError(
    ApiErrorCode.InsufficientScope,
    `This operation requires one of the scopes: ${accepted.join(' ')}`,
    {
      wwwAuthenticate: `Bearer realm="${REALM}", error="insufficient_scope", scope="${accepted.join(' ')}"`,
    },
  );
}
