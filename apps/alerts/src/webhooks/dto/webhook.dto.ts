import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { WEBHOOK_TYPES, type WebhookType } from '@edu/persistence';

export class CreateWebhookDto {
  @ApiProperty({
    description: 'URL that receives deliveries (https, public host)',
    example: 'https://hooks.partner.example/alerts',
  })
  @IsString()
  @MaxLength(2048)
  endpoint: string;

  @ApiProperty({ enum: WEBHOOK_TYPES })
  @IsIn(WEBHOOK_TYPES)
  type: WebhookType;
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
}

export class WebhookIdParam {
  @IsUUID('all', { message: 'id must be a UUID' })
  id: string;
}

/** Spec 2.11 */
export interface WebhookView {
  webhook_id: string;
  endpoint: string;
  type: WebhookType;
}

/** Spec 2.12 */
export interface WebhookActionResult {
  webhook_id: string;
  action: 'newWebhook' | 'updateWebhook' | 'deleteWebhook';
  success: boolean;
  updated_props?: Partial<Pick<WebhookView, 'endpoint' | 'type'>>;
}
