import { Module } from '@nestjs/common';
import { DeliveryStoreModule } from '../delivery-store/delivery-store.module';
import { WebhookKinds } from './webhook-kinds';
import { WebhookSecretIssuer } from './webhook-secrets';
import { WebhookRepository } from './webhook.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [DeliveryStoreModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookRepository, WebhookSecretIssuer, WebhookKinds],
  exports: [WebhooksService],
})
export class WebhooksModule {}
