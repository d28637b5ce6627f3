import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  WEBHOOK_RATE_LIMIT_BOUNDS,
  WEBHOOK_KINDS,
  WEBHOOK_TYPES,
  type RosterEventFilter,
  type WebhookDisabledReason,
  type WebhookKind,
  type WebhookStatus,
  type WebhookType,
} from '@edu/persistence';
import { MAX_SECRET_OVERLAP_SECONDS } from '../webhook-secrets';
import { RosterEventFilterDto } from './roster-event-filter.dto';

const RATE_LIMIT_DOC: ApiPropertyOptions = {
  type: 'integer',
  minimum: WEBHOOK_RATE_LIMIT_BOUNDS.min,
  maximum: WEBHOOK_RATE_LIMIT_BOUNDS.max,
  description: 'Most deliveries a second this endpoint receives (none when absent or null); waiting spends no attempt',
};

/** An integer number of deliveries per second within the bounds. */
const RateLimitRule = (): PropertyDecorator => {
  const rules = [IsInt(), Min(WEBHOOK_RATE_LIMIT_BOUNDS.min), Max(WEBHOOK_RATE_LIMIT_BOUNDS.max)];
  return (target, key) => rules.forEach((rule) => rule(target, key));
};

export class CreateWebhookDto {
  @ApiProperty({
    description: 'URL that receives deliveries (https, public host)',
    example: 'https://hooks.partner.example/alerts',
  })
  @IsString()
  @MaxLength(2048)
  endpoint: string;

  @ApiPropertyOptional({
    enum: WEBHOOK_TYPES,
    description: 'Alert deliveries: notice or whole message (required for kind alerts)',
  })
  @ValidateIf((o: CreateWebhookDto) => o.kind !== 'roster-events' || o.type !== undefined)
  @IsIn(WEBHOOK_TYPES)
  type?: WebhookType;

  @ApiPropertyOptional({
    enum: WEBHOOK_KINDS,
    default: 'alerts',
    description: "alerts: alert messages; roster-events: the roster change feed of the app's deployments, in batches",
  })
  @IsOptional()
  @IsIn(WEBHOOK_KINDS)
  kind?: WebhookKind;

  @ApiPropertyOptional({ type: RosterEventFilterDto, description: 'roster-events webhooks only: which events' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RosterEventFilterDto)
  filter?: RosterEventFilterDto;

  @ApiPropertyOptional(RATE_LIMIT_DOC)
  @IsOptional()
  @RateLimitRule()
  rate_limit?: number;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ description: 'URL that receives deliveries (https, public host)' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  endpoint?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_TYPES })
  @IsOptional()
  @IsIn(WEBHOOK_TYPES)
  type?: WebhookType;

  @ApiPropertyOptional({
    enum: ['active'],
    description: 'Re-enables a disabled webhook: its held deliveries are sent again',
  })
  @IsOptional()
  @IsIn(['active'], { message: 'status must be "active" (a webhook is disabled by the platform, never by a request)' })
  status?: 'active';

  @ApiPropertyOptional({
    ...RATE_LIMIT_DOC,
    nullable: true,
    description: `${RATE_LIMIT_DOC.description}; null removes it`,
  })
  @IsOptional()
  @RateLimitRule()
  rate_limit?: number | null;
}

export class RotateSecretDto {
  @ApiPropertyOptional({
    description:
      'How long the replaced secret keeps signing beside the new one (seconds; default 86400, 0 ends it now)',
    minimum: 0,
    maximum: MAX_SECRET_OVERLAP_SECONDS,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_SECRET_OVERLAP_SECONDS)
  overlap_seconds?: number;
}

export class WebhookIdParam {
  @IsUUID('all', { message: 'id must be a UUID' })
  id: string;
}

/** Spec 2.11, and how deliveries to it are signed (Standard Webhooks). */
export interface WebhookView {
  webhook_id: string;
  endpoint: string;
  type: WebhookType;
  /** What it receives: alert messages, or the roster change feed. */
  kind: WebhookKind;
  /** roster-events webhooks: which events (null: all of them). */
  filter: RosterEventFilter | null;
  /** Whether deliveries carry a `webhook-signature` (false for webhooks registered before secrets, until a rotation). */
  signing_secret_set: boolean;
  /** While a rotation's overlap lasts: when the previous secret stops signing. */
  previous_secret_expires_at: string | null;
  /** `disabled`: nothing is sent (deliveries are held) until updateWebhook sets `status: active`. */
  status: WebhookStatus;
  disabled_reason: WebhookDisabledReason | null;
  disabled_at: string | null;
  /** An active webhook failing since then (no delivered attempt since): it is disabled if it goes on long enough. */
  failing_since: string | null;
  /** Most deliveries a second it receives; null: no limit. */
  rate_limit: number | null;
}

/** Spec 2.12; `secret` on newWebhook only: the Standard Webhooks secret, shown this once. */
export interface WebhookActionResult {
  webhook_id: string;
  action: 'newWebhook' | 'updateWebhook' | 'deleteWebhook';
  success: boolean;
  updated_props?: Partial<Pick<WebhookView, 'endpoint' | 'type' | 'status' | 'rate_limit'>>;
  secret?: string;
}

/** A rotated secret: the new one (shown this once) and when the previous one stops signing. */
export interface RotatedSecret {
  webhook_id: string;
  secret: string;
  previous_secret_expires_at: string | null;
}
