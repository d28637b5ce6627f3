import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { DeliveryStoreModule } from '../delivery-store/delivery-store.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { PortalSessionsController } from './portal-sessions.controller';
import { PortalSessions } from './portal-sessions';
import { PortalReader } from './portal-reader';
import { PortalResponder } from './portal-responder';
import { PortalController } from './portal.controller';

/** The partners' delivery portal: its links (an API route) and its pages. */
@Module({
  imports: [WebhooksModule, DeliveriesModule, DeliveryStoreModule],
  controllers: [PortalSessionsController, PortalController],
  providers: [PortalSessions, PortalReader, PortalResponder],
})
export class PortalModule {}
