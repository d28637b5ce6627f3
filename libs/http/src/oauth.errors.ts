/** RFC 6749 §5.2 error codes. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    /** invalid_client after HTTP Basic: answer 401 with a Basic challenge (RFC 6749 §5.2). */
    readonly basicChallenge = false,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  get status(): number {
    if (this.code === 'invalid_client') return 401;
    return 400;
  }
}

/** A failed client authentication; names the client id when a client has it (a metric label never made up by the caller). */
export class ClientAuthenticationFailed extends OAuthError {
  constructor(
    basicChallenge: boolean,
    readonly registeredClientId?: string,
  ) {
    super('invalid_client', 'Client authentication failed', basicChallenge);
  }
}
