import { Injectable } from '@nestjs/common';
import { ApiError, ApiErrorCode, decodePageCursor, encodePageCursor, type Principal } from '@edu/domain';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  isOpenDelivery,
  purgedMessageState,
  WebhookDeliveriesRepository,
  type DeliveryRow,
  type DeliveryStatus,
} from '@edu/persistence';
import { payloadPurged } from '../retention/payload-purged';
import { AlertsEnv } from '../config/alerts.env';
import { AlertSharing } from '../sharing/alert-sharing';
import { WebhooksService } from '../webhooks/webhooks.service';
import { DeliveryEnqueuer } from '../delivery-store/delivery-enqueuer';
import { toAttemptView, toDeliveryView, type AttemptView, type DeliveryView } from './delivery.view';
import type { ListDeliveriesQuery } from './dto/deliveries.dto';

export interface DeliveryPage {
  deliveries: DeliveryView[];
  next_cursor: string | null;
}

export interface TestDeliveryResult {
  delivery_id: string;
  /** True when the endpoint answered 2xx in time. */
  success: boolean;
  status: DeliveryStatus;
  attempt: AttemptView | null;
}

const POLL_MS = 100;

/** 409 for a message the app may not see: the school's data sharing does not share a person it names. */
const notShared = (what: string): ApiError =>
  new ApiError(
    ApiErrorCode.Conflict,
    `${what}: the school's data sharing does not share with your app a person the message names`,
    { reason: 'not_shared' },
  );

/** 409 for a redelivery to a disabled webhook: re-enable it first (its held deliveries then go too). */
const webhookDisabled = (): ApiError =>
  new ApiError(
    ApiErrorCode.Conflict,
    'The webhook is disabled: re-enable it (updateWebhook with "status": "active") to deliver again',
    { reason: 'webhook_disabled' },
  );

/**
 * The delivery log of the calling app's own webhooks at the token's tenant: listing, one delivery
 * with its attempts, redelivery and test deliveries.
 */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly webhooks: WebhooksService,
    private readonly enqueuer: DeliveryEnqueuer,
    private readonly env: AlertsEnv,
    private readonly sharing: AlertSharing,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async list(who: Principal, webhookId: string, q: ListDeliveriesQuery): Promise<DeliveryPage> {
    const { tenantId, hook } = await this.webhooks.owned(who, webhookId);
    const limit = q.limit ?? 20;
    const rows = await this.deliveries.list(tenantId, hook.id, {
      status: q.status,
      after: q.cursor ? decodePageCursor(q.cursor) : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      deliveries: page.map(toDeliveryView),
      next_cursor: rows.length > limit && last ? encodePageCursor({ at: last.cursor_at, id: last.id }) : null,
    };
  }

  async get(
    who: Principal,
    webhookId: string,
    deliveryId: string,
  ): Promise<DeliveryView & { attempts: AttemptView[] }> {
    const { tenantId, hook } = await this.webhooks.owned(who, webhookId);
    const delivery = await this.find(tenantId, hook.id, deliveryId);
    const attempts = await this.deliveries.attempts(tenantId, delivery.id);
    return { ...toDeliveryView(delivery), attempts: attempts.map(toAttemptView) };
  }

  /**
   * A new delivery of a finished delivery's message, on a new schedule (a new `jti`). Decided like
   * one at fan-out, with the data sharing in force now; a withheld delivery is never sent.
   */
  async redeliver(who: Principal, webhookId: string, deliveryId: string): Promise<DeliveryView> {
    const { tenantId, hook } = await this.webhooks.owned(who, webhookId);
    const original = await this.find(tenantId, hook.id, deliveryId);
    if (!original.message_id)
      throw new ApiError(
        ApiErrorCode.Conflict,
        'Only message deliveries can be redelivered (a test or event delivery cannot); send another test',
      );
    if (isOpenDelivery(original.status) || original.status === 'held')
      throw new ApiError(
        ApiErrorCode.Conflict,
        `The delivery is still ${original.status}; redeliver it once it has finished`,
      );
    if (original.status === 'withheld') throw notShared('The delivery was withheld and is never sent');
    if (hook.status === 'disabled') throw webhookDisabled();
    if ((await purgedMessageState(this.ds, tenantId, original.message_id, hook.appId))?.purged)
      throw payloadPurged('The message cannot be delivered again');
    const sharing = await this.sharing.ofApp(tenantId, hook.appId);
    if (!(await this.sharing.sharesMessage(tenantId, sharing, original.message_id)))
      throw notShared('The message is not delivered again');
    const created = await this.deliveries.createRedelivery(original, tenantId, hook.appId, hook.type);
    await this.enqueuer.enqueue([{ kind: 'redelivery', deliveryId: created.id }]);
    return toDeliveryView(created);
  }

  /**
   * Sends a signed test delivery through the dispatcher at the front of the queue and waits for
   * its single attempt. When it does not finish in time the answer says so (202 by the controller).
   */
  async test(who: Principal, webhookId: string): Promise<TestDeliveryResult> {
    const { tenantId, hook } = await this.webhooks.owned(who, webhookId);
    const created = await this.deliveries.createTest(tenantId, hook.appId, hook.id, hook.type);
    await this.enqueuer.enqueue([{ kind: 'test', deliveryId: created.id }]);
    const deadline = Date.now() + this.env.WEBHOOK_TEST_WAIT_MS;
    let current: DeliveryRow = created;
    while (isOpenDelivery(current.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      current = (await this.deliveries.find(tenantId, hook.id, created.id)) ?? current;
    }
    const attempts = await this.deliveries.attempts(tenantId, created.id);
    const attempt = attempts[attempts.length - 1];
    return {
      delivery_id: created.id,
      success: current.status === 'delivered',
      status: current.status,
      attempt: attempt ? toAttemptView(attempt) : null,
    };
  }

  /** A delivery of the webhook at the tenant; any other id answers 404. */
  private async find(tenantId: string, webhookId: string, deliveryId: string): Promise<DeliveryRow> {
    const delivery = await this.deliveries.find(tenantId, webhookId, deliveryId.toLowerCase());
    if (!delivery) throw ApiError.notFound('Delivery');
    return delivery;
  }
}
