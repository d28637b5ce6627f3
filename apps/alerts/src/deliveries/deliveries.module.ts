import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesService } from './deliveries.service';
import { DeliveryRepository } from './delivery.repository';

@Module({ imports: [WebhooksModule], controllers: [DeliveriesController], providers: [DeliveriesService, DeliveryRepository], exports: [DeliveryRepository] })
export class DeliveriesModule {}
