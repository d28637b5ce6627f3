import { Module } from '@nestjs/common';
import { AlertSharingModule } from '../sharing/alert-sharing.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesService } from './deliveries.service';
import { DeliveryStoreModule } from '../delivery-store/delivery-store.module';

@Module({
  imports: [WebhooksModule, DeliveryStoreModule, AlertSharingModule],
  controllers: [DeliveriesController],
  providers: [DeliveriesService],
  exports: [DeliveriesService],
})
export class DeliveriesModule {}
