import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** How long a portal link (and the session it opens) lasts: 5 minutes to 4 hours, 30 minutes by default. */
export const PORTAL_SESSION_SECONDS = { min: 300, max: 14_400, default: 1_800 } as const;

export class CreatePortalSessionDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: PORTAL_SESSION_SECONDS.min,
    maximum: PORTAL_SESSION_SECONDS.max,
    default: PORTAL_SESSION_SECONDS.default,
    description: 'Seconds the link may be opened in, and the session it opens lasts',
  })
  @IsOptional()
  @IsInt()
  @Min(PORTAL_SESSION_SECONDS.min)
  @Max(PORTAL_SESSION_SECONDS.max)
  expires_in?: number;
}

/** A portal link: open it once, in a browser, before `expires_at`. */
export interface PortalSessionView {
  url: string;
  expires_at: string;
}
