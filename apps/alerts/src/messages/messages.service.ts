import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError, isUuid, type Principal } from '@edu/domain';
import { purgedMessageState, WebhookDeliveriesRepository } from '@edu/persistence';
import { payloadPurged } from '../retention/payload-purged';
import { DeliveryEnqueuer } from '../delivery-store/delivery-enqueuer';
import { AlertSharing, type MessagePeople } from '../sharing/alert-sharing';
import { peopleNamed } from '../sharing/message-people';
import { AlertsAccess } from '../tenancy/alerts-access';
import { AlertMessageRepository, type NewMessageRow } from './alert-message.repository';
import type { NewAlertMessageDto, SubmitMessagesDto } from './dto/alert-message.dto';
import { AlertsMetrics } from './alerts.metrics';
import { toMessageView, type AlertMessageView } from './message.view';

export interface SubmittedMessage {
  message_id: string;
  transaction_id: string;
  deliveries: number;
}

const countAlertItems = (m: NewAlertMessageDto): number => m.alerts.reduce((n, group) => n + group.alerts.length, 0);

/** The messages to store, with the people each names: within a batch the first message of a transaction id wins, as against earlier batches. */
function firstOfEachTransaction(messages: NewAlertMessageDto[]): (NewMessageRow & MessagePeople)[] {
  const first = new Map<string, NewMessageRow & MessagePeople>();
  for (const m of messages) {
    if (first.has(m.transaction_id)) continue;
    first.set(m.transaction_id, {
      id: randomUUID(),
      transactionId: m.transaction_id,
      recipient: m.recipient,
      alerts: m.alerts,
      alertCount: countAlertItems(m),
      people: peopleNamed(m),
    });
  }
  return [...first.values()];
}

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
    private readonly sharing: AlertSharing,
  ) {}

  /**
   * Stores a batch and its deliveries in one transaction (all or nothing). A transaction id the
   * tenant already used stores nothing and answers the existing message (generators retry).
   * Deliveries to an app whose data sharing does not share a person a message names are stored
   * `withheld` and never queued; `deliveries` in the answer counts the ones to send.
   */
  async submit(_operator: Principal, dto: SubmitMessagesDto): Promise<SubmittedMessage[]> {
    const tenantId = dto.tenant_id.toLowerCase();
    await this.access.assertServed(tenantId);
    const candidates = firstOfEachTransaction(dto.messages);
    // Read before the transaction: a visibility scope may take a while to compute the first time.
    const plan = await this.sharing.planFanOut(tenantId, candidates, this.access.alertsScopeUris());

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
        tenantId,
        existing.map((e) => e.messageId),
      );
      const deliveries = await this.deliveries.fanOut(
        em,
        tenantId,
        stored.map((s) => s.messageId),
        this.access.alertsScopeUris(),
        plan,
      );
      return { stored, existing, existingFanOut, deliveries };
    });
    this.metrics.messagesStored.inc(stored.length);
    const toSend = deliveries.filter((d) => d.status === 'pending');
    this.metrics.deliveriesWithheld.inc({ reason: 'not_shared' }, deliveries.length - toSend.length);
    await this.enqueuer.enqueue(toSend.map(({ deliveryId }) => ({ kind: 'first-attempt', deliveryId })));

    const perMessage = new Map<string, number>(existingFanOut);
    for (const d of toSend) perMessage.set(d.messageId, (perMessage.get(d.messageId) ?? 0) + 1);
    const byTransaction = new Map<string, SubmittedMessage>();
    for (const m of [...stored, ...existing])
      byTransaction.set(m.transactionId, {
        message_id: m.messageId,
        transaction_id: m.transactionId,
        deliveries: perMessage.get(m.messageId) ?? 0,
      });
    return dto.messages.map((m) => byTransaction.get(m.transaction_id) as SubmittedMessage);
  }

  /**
   * getMessage: a message of the token's tenant; any other id answers the same 404, and so does a
   * message about a person the school's data sharing does not share with the app. Fields the
   * sharing withholds are left out. A purged message answers 409 `payload_purged` to an app that
   * had a delivery of it.
   */
  async get(who: Principal, rawId: string): Promise<AlertMessageView> {
    const tenantId = await this.access.partnerTenant(who);
    if (!isUuid(rawId)) throw ApiError.notFound('Message');
    const id = rawId.toLowerCase();
    // A purged payload names nobody any more: the apps it was for are told it is gone, the others see no message.
    const state = await purgedMessageState(this.ds, tenantId, id, who.appId);
    if (state?.purged) throw state.deliveredToApp ? payloadPurged('getMessage') : ApiError.notFound('Message');
    const sharing = await this.sharing.ofApp(tenantId, who.appId);
    if (!(await this.sharing.sharesMessage(tenantId, sharing, id))) throw ApiError.notFound('Message');
    const message = await this.ds.transaction(async (em) => {
      if (isUuid(who.appId)) await this.messages.recordFetch(em, tenantId, id, who.appId.toLowerCase());
      return this.messages.findWithCounts(em, tenantId, id);
    });
    if (!message) throw ApiError.notFound('Message');
    return toMessageView(message, sharing.spec.withhold);
  }
}
