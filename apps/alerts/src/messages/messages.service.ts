import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError, isUuid, type Principal } from '@edu/domain';
import { validateBody } from '@edu/http';
import { WebhookDeliveriesRepository } from '@edu/persistence';
import { DeliveryEnqueuer } from '../deliveries/delivery-enqueuer';
import { AlertsAccess } from '../tenancy/alerts-access';
import { AlertMessageRepository, type NewMessageRow } from './alert-message.repository';
import { SubmitMessagesDto, type NewAlertMessageDto } from './dto/alert-message.dto';
import { AlertsMetrics } from './alerts.metrics';
import { toMessageView, type AlertMessageView } from './message.view';

export interface SubmittedMessage {
  message_id: string;
  transaction_id: string;
  deliveries: number;
}

const countAlertItems = (m: NewAlertMessageDto): number => m.alerts.reduce((n, group) => n + group.alerts.length, 0);

/** Alert messages: submission by the alert generator (operator) and getMessage for partners. */
@Injectable()
export class MessagesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly messages: AlertMessageRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly enqueuer: DeliveryEnqueuer,
    private readonly access: AlertsAccess,
    private readonly metrics: AlertsMetrics,
  ) {}

  /**
   * Stores a batch and its deliveries in one transaction (all or nothing). A transaction id the
   * tenant already used stores nothing and answers the existing message (generators retry).
   */
  async submit(_operator: Principal, body: unknown): Promise<SubmittedMessage[]> {
    const dto = await validateBody(SubmitMessagesDto, body);
    const tenantId = dto.tenant_id.toLowerCase();
    await this.access.assertServed(tenantId);

    // Within a batch the first message of a transaction id wins, as against earlier batches.
    const firstByTransaction = new Map<string, NewMessageRow>();
    for (const m of dto.messages) {
      if (!firstByTransaction.has(m.transaction_id)) {
        firstByTransaction.set(m.transaction_id, {
          id: randomUUID(),
          transactionId: m.transaction_id,
          recipient: m.recipient,
          alerts: m.alerts,
          alertCount: countAlertItems(m),
        });
      }
    }
    const candidates = [...firstByTransaction.values()];

    const { stored, existing, existingFanOut, deliveries } = await this.ds.transaction(async (em) => {
      const stored = await this.messages.insertNew(em, tenantId, candidates);
      const storedIds = new Set(stored.map((s) => s.transactionId));
      const existing = await this.messages.findByTransactionIds(
        em,
        tenantId,
        candidates.filter((c) => !storedIds.has(c.transactionId)).map((c) => c.transactionId),
      );
      const existingFanOut = await this.deliveries.fanOutSizes(
        em,
        existing.map((e) => e.messageId),
      );
      const deliveries = await this.deliveries.fanOut(
        em,
        tenantId,
        stored.map((s) => s.messageId),
        this.access.alertsScopeUris(),
      );
      return { stored, existing, existingFanOut, deliveries };
    });
    this.metrics.messagesStored.inc(stored.length);
    await this.enqueuer.enqueue(deliveries.map(({ deliveryId }) => ({ kind: 'first-attempt', deliveryId })));

    const perMessage = new Map<string, number>();
    for (const d of deliveries) perMessage.set(d.messageId, (perMessage.get(d.messageId) ?? 0) + 1);
    const byTransaction = new Map<string, SubmittedMessage>();
    for (const s of stored)
      byTransaction.set(s.transactionId, {
        message_id: s.messageId,
        transaction_id: s.transactionId,
        deliveries: perMessage.get(s.messageId) ?? 0,
      });
    for (const e of existing)
      byTransaction.set(e.transactionId, {
        message_id: e.messageId,
        transaction_id: e.transactionId,
        deliveries: existingFanOut.get(e.messageId) ?? 0,
      });
    return dto.messages.map((m) => byTransaction.get(m.transaction_id) as SubmittedMessage);
  }

  /** getMessage: a message of the token's tenant; any other id answers the same 404. */
  async get(who: Principal, rawId: string): Promise<AlertMessageView> {
    const tenantId = await this.access.partnerTenant(who);
    if (!isUuid(rawId)) throw ApiError.notFound('Message');
    const id = rawId.toLowerCase();
    const message = await this.ds.transaction(async (em) => {
      if (isUuid(who.appId)) await this.messages.recordFetch(em, tenantId, id, who.appId.toLowerCase());
      return this.messages.findWithCounts(em, tenantId, id);
    });
    if (!message) throw ApiError.notFound('Message');
    return toMessageView(message);
  }
}
