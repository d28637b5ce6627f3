import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsUUID, Max, Min } from 'class-validator';
import { PAYLOAD_RETENTION_DAYS } from '@edu/persistence';

export class TenantParam {
  @IsUUID('all', { message: 'tenant_id must be a UUID' })
  tenant_id: string;
}

export class TenantMessageParams extends TenantParam {
  @IsUUID('all', { message: 'message_id must be a UUID' })
  message_id: string;
}

export class UpdateDeliverySettingsDto {
  @ApiProperty({
    type: 'integer',
    minimum: PAYLOAD_RETENTION_DAYS.min,
    maximum: PAYLOAD_RETENTION_DAYS.max,
    description: `Days the payloads of alert messages and event deliveries are kept (default ${PAYLOAD_RETENTION_DAYS.default}); metadata stays`,
  })
  @IsInt()
  @Min(PAYLOAD_RETENTION_DAYS.min)
  @Max(PAYLOAD_RETENTION_DAYS.max)
  delivery_payload_retention_days: number;
}

/** A tenant's delivery settings. */
export interface DeliverySettingsView {
  tenant_id: string;
  delivery_payload_retention_days: number;
  /** False while the tenant has the default. */
  customised: boolean;
}

/** A message whose payload is purged. */
export interface ExpungedView {
  message_id: string;
  payload_purged_at: string;
  /** Its deliveries that had not finished sending and never will now. */
  deliveries_expired: number;
}
