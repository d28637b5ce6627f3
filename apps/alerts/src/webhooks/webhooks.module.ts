import { Module } from '@nestjs/common';
import { WebhookRepository } from './webhook.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({ controllers: [WebhooksController], providers: [WebhooksService, WebhookRepository], exports: [WebhooksService] })
export class WebhooksModule {}
