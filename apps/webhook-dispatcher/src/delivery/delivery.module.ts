import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MetricsModule, systemResolver, type Resolver } from '@edu/http';
import { KeyEncryption, SigningKeyStore, WebhookTokenSigner } from '@edu/signing';
import { DispatcherEnv } from '../config/dispatcher.env';
import { DeliveryWorker } from './delivery-worker';
import { DispatchRepository } from '@edu/persistence';
import { DispatcherMetrics } from './dispatcher.metrics';
import { RecoveryLoops } from './recovery-loops';
import { RESOLVER } from './resolver.token';

const PROVIDERS = [
  { provide: KeyEncryption, inject: [DispatcherEnv], useFactory: (env: DispatcherEnv) => new KeyEncryption(env.KEY_ENCRYPTION_KEY) },
  // Read-only: the identity service creates the webhook key (in a regional database it arrives by replication).
  { provide: SigningKeyStore, inject: [DataSource, KeyEncryption], useFactory: (ds: DataSource, enc: KeyEncryption) => new SigningKeyStore(ds, enc, undefined, { createMissing: false }) },
  // Tokens name the platform's identity service as issuer: the JWKS that verifies them lives there.
  { provide: WebhookTokenSigner, inject: [SigningKeyStore, DispatcherEnv], useFactory: (keys: SigningKeyStore, env: DispatcherEnv) => new WebhookTokenSigner(keys, env.TOKEN_ISSUER) },
  DispatchRepository,
  DispatcherMetrics,
  DeliveryWorker,
  RecoveryLoops,
];

export interface DeliveryModuleOptions {
  /** How endpoint host names are resolved before connecting (default: the system resolver). */
  resolver?: Resolver;
}

/** Webhook delivery: the worker, its signing key, and the loops that keep Redis in step with PostgreSQL. */
@Module({})
export class DeliveryModule {
  static forRoot(o: DeliveryModuleOptions = {}): DynamicModule {
    return {
      module: DeliveryModule,
      imports: [MetricsModule],
      providers: [...PROVIDERS, { provide: RESOLVER, useValue: o.resolver ?? systemResolver }],
      exports: [DeliveryWorker, RecoveryLoops],
    };
  }
}
