import { LRUCache } from 'lru-cache';
import { encodePayloadTail, type EncodedPayloadTail } from '@edu/signing';
import type { MessageBodyText } from '@edu/persistence';
import type { WithholdCategory } from '@edu/sharing';
import { MicroBatch } from './micro-batch';
import { messageTailJson } from './payloads';

/** Which message's tail, without which fields. */
interface Tail {
  messageId: string;
  withhold: readonly WithholdCategory[];
}

/** Messages read in one query: a few, since each can be megabytes. */
const LOAD_BATCH = 8;
const LOAD_WAIT_MS = 2;

/**
 * The encoded end of each message's full payload (recipient and alerts, `encodePayloadTail`), per
 * dispatcher process: a message going to several webhooks, or retried, is read from PostgreSQL and
 * encoded once. Keyed by message id, which is safe because a stored message never changes (its id
 * is never reused), and by the field categories an app's data sharing withholds from it (apps
 * withholding the same ones share a tail); bounded by the bytes held, least recently used out
 * first. Concurrent deliveries of one message share a single read.
 */
export class MessageTailCache {
  private readonly cache: LRUCache<string, EncodedPayloadTail, Tail>;
  private readonly loads: MicroBatch<string, MessageBodyText | undefined>;

  constructor(load: (messageIds: string[]) => Promise<MessageBodyText[]>, maxBytes: number) {
    this.loads = new MicroBatch(
      async (ids) => {
        const byId = new Map((await load(ids)).map((m) => [m.id, m]));
        return ids.map((id) => byId.get(id));
      },
      LOAD_BATCH,
      LOAD_WAIT_MS,
    );
    this.cache = new LRUCache<string, EncodedPayloadTail, Tail>({
      maxSize: maxBytes,
      sizeCalculation: (tail) => tail.base64url.length,
      fetchMethod: async (_key, _stale, { context }) => {
        const body = await this.loads.add(context.messageId);
        if (!body) throw new MessageGoneError(context.messageId);
        return encodePayloadTail(messageTailJson(body, context.withhold));
      },
    });
  }

  /**
   * The encoded tail of a message without the fields of `withhold` (`alertWithholding`, in its
   * order); rejects when the message is gone (deleted meanwhile).
   */
  async get(messageId: string, withhold: readonly WithholdCategory[] = []): Promise<EncodedPayloadTail> {
    const key = withhold.length === 0 ? messageId : `${messageId}|${withhold.join(',')}`;
    return (await this.cache.fetch(key, { context: { messageId, withhold } })) as EncodedPayloadTail;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.cache.calculatedSize;
  }
}

/** The message was deleted (retention) after its delivery was read: nothing left to send. */
export class MessageGoneError extends Error {
  constructor(messageId: string) {
    super(`message ${messageId} no longer exists`);
  }
}
