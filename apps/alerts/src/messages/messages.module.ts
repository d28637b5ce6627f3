import { Module } from '@nestjs/common';
import { MetricsModule } from '@edu/http';
import { DeliveryStoreModule } from '../deliveries/delivery-store.module';
import { AlertMessageRepository } from './alert-message.repository';
import { AlertsMetrics } from './alerts.metrics';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';

@Module({
  imports: [DeliveryStoreModule, MetricsModule],
  controllers: [MessagesController],
  providers: [MessagesService, AlertMessageRepository, AlertsMetrics],
})
export class MessagesModule {}
