import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Inject, Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import { QUEUES } from './queues';
import { RedisPing, redisOptionsFromUrl } from './redis-connection';

export interface QueueModuleOptions {
  redisUrl: string;
  /** Key prefix; a `{hash tag}` keeps every key of a queue on one Redis Cluster slot. */
  prefix: string;
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

/** BullMQ connection plus the webhook delivery queue. */
@Module({})
export class QueueModule {
  static forRoot(o: QueueModuleOptions): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [
        BullModule.forRoot({
          connection: redisOptionsFromUrl(o.redisUrl),
          prefix: o.prefix,
          defaultJobOptions: {
            removeOnComplete: { age: 24 * 3600, count: 10_000 },
            removeOnFail: { age: 7 * 24 * 3600 },
          },
        }),
        BullModule.registerQueue({ name: QUEUES.webhookDeliveries }),
      ],
      providers: [{ provide: REDIS_URL, useValue: o.redisUrl }, QueueHealth],
      exports: [BullModule, QueueHealth],
    };
  }
}

