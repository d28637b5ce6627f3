import { Module } from '@nestjs/common';
import { MetricsModule } from '@edu/http';
import { DeliveryStoreModule } from '../delivery-store/delivery-store.module';
import { AlertSharingModule } from '../sharing/alert-sharing.module';
import { AlertMessageRepository } from './alert-message.repository';
import { AlertsMetrics } from './alerts.metrics';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';

@Module({
  imports: [DeliveryStoreModule, MetricsModule, AlertSharingModule],
  controllers: [MessagesController],
  providers: [MessagesService, AlertMessageRepository, AlertsMetrics],
})
export class MessagesModule {}
