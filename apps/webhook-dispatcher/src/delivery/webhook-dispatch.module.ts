import { DynamicModule, Module, type Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { webhookTargetPolicy } from '@edu/config';
import { MetricsModule, systemResolver, type Resolver } from '@edu/http';
import { DispatchRepository } from '@edu/persistence';
import { KeyEncryption, SigningKeyStore, WebhookTokenSigner } from '@edu/signing';
import { DispatcherEnv } from '../config/dispatcher.env';
import { DeliveryAttempt } from './delivery-attempt';
import { DeliveryReads, OutcomeWrites } from './delivery-batches';
import { DeliveryJobRouter } from './delivery-job-handlers';
import { DeliveryWorker } from './delivery-worker';
import { DeliveryService } from './delivery.service';
import { DispatcherMetrics } from './dispatcher.metrics';
import { MessageTailCache } from './message-tail-cache';
import { PerWebhookConcurrencyLimiter } from './per-webhook-concurrency-limiter';
import { PayloadPurge } from '../retention/payload-purge';
import { RecoveryLoops } from './recovery-loops';
import { RESOLVER } from './resolver.token';
import { WebhookSecrets } from './webhook-secrets';
import { WebhookSender } from './webhook-sender';
import { WebhookThrottle } from './webhook-throttle';
import { WORKER_ID, workerIdProvider } from './worker-id.token';

const SIGNING: Provider[] = [
  {
    provide: KeyEncryption,
    inject: [DispatcherEnv],
    useFactory: (env: DispatcherEnv) => new KeyEncryption(env.KEY_ENCRYPTION_KEY),
  },
  // Read-only: the identity service creates the webhook key (in a regional database it arrives by replication).
  {
    provide: SigningKeyStore,
    inject: [DataSource, KeyEncryption],
    useFactory: (ds: DataSource, enc: KeyEncryption) =>
      new SigningKeyStore(ds, enc, undefined, { createMissing: false }),
  },
  // Tokens name the platform's identity service as issuer: the JWKS that verifies them lives there.
  {
    provide: WebhookTokenSigner,
    inject: [SigningKeyStore, DispatcherEnv],
    useFactory: (keys: SigningKeyStore, env: DispatcherEnv) => new WebhookTokenSigner(keys, env.TOKEN_ISSUER),
  },
  // Standard Webhooks secrets are sealed with the same key by the alerts API.
  { provide: WebhookSecrets, inject: [KeyEncryption], useFactory: (enc: KeyEncryption) => new WebhookSecrets(enc) },
];

/** What one attempt uses: the sender, the per-webhook cap, the message cache and the attempt itself. */
const ATTEMPT: Provider[] = [
  {
    provide: WebhookSender,
    inject: [DispatcherEnv, RESOLVER],
    useFactory: (env: DispatcherEnv, resolver: Resolver) =>
      new WebhookSender({
        policy: webhookTargetPolicy(env),
        timeoutMs: env.WEBHOOK_TIMEOUT_MS,
        connectionsPerOrigin: env.WEBHOOK_CONNECTIONS_PER_ORIGIN,
        resolver,
        userAgent: 'edu-platform-webhooks/1.0',
      }),
  },
  // Slots of throttled webhooks, shared by every replica through Redis (beside the queue's keys).
  {
    provide: WebhookThrottle,
    inject: [DispatcherEnv],
    useFactory: (env: DispatcherEnv) => new WebhookThrottle(env.REDIS_URL, env.QUEUE_PREFIX),
  },
  {
    provide: PerWebhookConcurrencyLimiter,
    inject: [DispatcherEnv],
    useFactory: (env: DispatcherEnv) => new PerWebhookConcurrencyLimiter(env.WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK),
  },
  {
    provide: MessageTailCache,
    inject: [DispatchRepository, DispatcherEnv],
    useFactory: (repo: DispatchRepository, env: DispatcherEnv) =>
      new MessageTailCache((ids) => repo.loadMessageBodies(ids), env.WEBHOOK_PAYLOAD_CACHE_BYTES),
  },
  {
    provide: DeliveryAttempt,
    inject: [WebhookTokenSigner, WebhookSender, MessageTailCache, WebhookSecrets, DispatcherEnv, WORKER_ID],
    useFactory: (
      signer: WebhookTokenSigner,
      sender: WebhookSender,
      tails: MessageTailCache,
      secrets: WebhookSecrets,
      env: DispatcherEnv,
      workerId: string,
    ) =>
      new DeliveryAttempt(signer, sender, tails, secrets, {
        retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
        alertsBaseUrl: env.ALERTS_PUBLIC_BASE_URL,
        workerId,
        retryAfter: { maxSeconds: env.WEBHOOK_RETRY_AFTER_MAX_SECONDS, secondMs: env.WEBHOOK_RETRY_AFTER_SECOND_MS },
      }),
  },
];

const PROVIDERS: Provider[] = [
  ...SIGNING,
  ...ATTEMPT,
  workerIdProvider,
  DispatchRepository,
  DispatcherMetrics,
  DeliveryReads,
  OutcomeWrites,
  DeliveryService,
  DeliveryJobRouter,
  DeliveryWorker,
  RecoveryLoops,
  PayloadPurge,
];

export interface WebhookDispatchModuleOptions {
  /** How endpoint host names are resolved before connecting (default: the system resolver). */
  resolver?: Resolver;
}

/**
 * Webhook dispatch: the worker and the handlers of each kind of delivery job, the delivery
 * service they call and what it uses, the loops that keep Redis in step with PostgreSQL, and the
 * purge of payloads past their retention.
 */
@Module({})
export class WebhookDispatchModule {
  static forRoot(o: WebhookDispatchModuleOptions = {}): DynamicModule {
    return {
      module: WebhookDispatchModule,
      imports: [MetricsModule],
      providers: [...PROVIDERS, { provide: RESOLVER, useValue: o.resolver ?? systemResolver }],
      exports: [DeliveryWorker, RecoveryLoops, PayloadPurge],
    };
  }
}
