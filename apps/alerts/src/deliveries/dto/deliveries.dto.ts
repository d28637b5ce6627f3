import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { CursorPageQuery } from '@edu/http';
import { DELIVERY_STATUSES, type DeliveryStatus } from '@edu/persistence';

export class ListDeliveriesQuery extends CursorPageQuery('next_cursor of the previous page') {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;
}

export class WebhookDeliveryParams {
  @IsUUID('all', { message: 'id must be a UUID' })
  id: string;

  @IsUUID('all', { message: 'deliveryId must be a UUID' })
  deliveryId: string;
}
