import { AlertMessageEntity } from './alert-message.entity';
import { AlertMessageFetchEntity } from './alert-message-fetch.entity';
import { WebhookDeliveryAttemptEntity } from './webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { TenantDeliverySettingsEntity } from './tenant-delivery-settings.entity';
import { AlertPortalSessionEntity } from './alert-portal-session.entity';

export * from './alert-message.entity';
export * from './alert-message-fetch.entity';
export * from './webhook-delivery-attempt.entity';
export * from './webhook-delivery.entity';
export * from './tenant-delivery-settings.entity';
export * from './alert-portal-session.entity';

export const ALERT_ENTITIES = [
  AlertMessageEntity,
  AlertMessageFetchEntity,
  WebhookDeliveryEntity,
  WebhookDeliveryAttemptEntity,
  TenantDeliverySettingsEntity,
  AlertPortalSessionEntity,
];
