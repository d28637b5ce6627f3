import { ApiProperty } from '@nestjs/swagger';
import { SIGN_IN_OUTCOMES, type SignInOutcome } from '@edu/persistence';
import type { SignInEventRow } from '@edu/sign-in';

/** One sign-in at the tenant, as the tenant reads it. */
export class SignInEventView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date-time', description: 'When the sign-in ended' }) time: string;
  @ApiProperty({ format: 'uuid' }) tenant_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The app the person was signing in to' })
  app_id: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Core provider name or the uuid of the tenant’s provider; null when none was chosen yet',
  })
  provider_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The person signed in (successes only)' })
  user_id: string | null;
  @ApiProperty({ enum: SIGN_IN_OUTCOMES }) outcome: SignInOutcome;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Refusals: why (not_enrolled, provider_not_allowed, app_not_deployed, upstream_error, state_mismatch, ...). Successes: provisioned (added just in time), linked (matched by e-mail, identifier recorded) or null',
  })
  reason: string | null;
}

/** A page of the log: its rows (newest first) and the cursor of the next page, if any. */
export interface SignInEventPage {
  rows: SignInEventView[];
  nextCursor: string | null;
}

export function toSignInEventView(r: SignInEventRow): SignInEventView {
  return {
    id: r.id,
    time: r.cursorAt,
    tenant_id: r.tenantId,
    app_id: r.appId,
    provider_id: r.providerId,
    user_id: r.userId,
    outcome: r.outcome,
    reason: r.reason,
  };
}
