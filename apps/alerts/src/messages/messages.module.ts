import { Module } from '@nestjs/common';
import { MetricsModule } from '@edu/http';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { AlertMessageRepository } from './alert-message.repository';
import { AlertsMetrics } from './alerts.metrics';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';

@Module({ imports: [DeliveriesModule, MetricsModule], controllers: [MessagesController], providers: [MessagesService, AlertMessageRepository, AlertsMetrics] })
export class MessagesModule {}
