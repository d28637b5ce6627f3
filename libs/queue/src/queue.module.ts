import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Inject, Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import { DELIVERY_QUEUE_SETTINGS, DeliveryQueue } from './delivery-queue';
import { QUEUES } from './queues';
import { RedisPing, redisOptionsFromUrl } from './redis-connection';

export interface QueueModuleOptions {
  redisUrl: string;
  /** Key prefix; a `{hash tag}` keeps every key of a queue on one Redis Cluster slot. */
  prefix: string;
  /** Retries after the first delivery attempt (spec: 10). */
  maxRetries: number;
}

const REDIS_URL = Symbol('REDIS_URL');

/** Redis readiness for /health/ready. */
@Injectable()
export class QueueHealth implements OnModuleDestroy {
  private readonly ping: RedisPing;

  constructor(@Inject(REDIS_URL) url: string) {
    this.ping = new RedisPing(url);
  }

  check(): Promise<void> {
    return this.ping.ping();
  }

  onModuleDestroy(): Promise<void> {
    return this.ping.close();
  }
}

/** BullMQ connection, the webhook delivery queue and its producer. */
@Module({})
export class QueueModule {
  static forRoot(o: QueueModuleOptions): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [
        BullModule.forRoot({ connection: redisOptionsFromUrl(o.redisUrl), prefix: o.prefix }),
        BullModule.registerQueue({ name: QUEUES.webhookDeliveries, streams: { events: { maxLen: 10_000 } } }),
      ],
      providers: [
        { provide: REDIS_URL, useValue: o.redisUrl },
        { provide: DELIVERY_QUEUE_SETTINGS, useValue: { maxRetries: o.maxRetries } },
        QueueHealth,
        DeliveryQueue,
      ],
      exports: [BullModule, QueueHealth, DeliveryQueue, REDIS_URL],
    };
  }
}

export { REDIS_URL };
