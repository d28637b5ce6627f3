import { Module } from '@nestjs/common';
import { WebhookDeliveriesRepository } from '@edu/persistence';
import { DeliveryEnqueuer } from './delivery-enqueuer';

/** The deliveries' store and their queueing, for the modules that create or cancel deliveries. */
@Module({
  providers: [WebhookDeliveriesRepository, DeliveryEnqueuer],
  exports: [WebhookDeliveriesRepository, DeliveryEnqueuer],
})
export class DeliveryStoreModule {}
