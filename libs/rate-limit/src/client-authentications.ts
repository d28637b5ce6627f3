import { Injectable, Module } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { MetricsModule, MetricsRegistry } from '@edu/http';
import { settleClientAuthentication } from './client-authentication';

/**
 * What the endpoints where a client authenticates with its secret (`/oauth/token`, and the
 * provider's token, introspection and revocation endpoints) report once they know: the rate limits
 * spend the budgets the outcome spends, and failures are counted per client for the operator.
 */
@Injectable()
export class ClientAuthentications {
  private readonly failures: Counter<'endpoint' | 'client'>;

  constructor(metrics: MetricsRegistry) {
    this.failures = metrics.counter(
      'client_authentication_failures_total',
      'Failed client authentications by endpoint and client id (`unknown` for an id no client has)',
      ['endpoint', 'client'],
    );
  }

  /** The client authenticated: its own token budget is spent (only its secret's holder can). */
  succeeded(req: object): Promise<void> {
    return settleClientAuthentication(req, 'success');
  }

  /**
   * The client did not authenticate. `registeredClientId` only when the id names a registered
   * client: an id anyone can make up is never a label, so the label set stays that of the clients.
   */
  failed(req: object, endpoint: string, registeredClientId: string | undefined): Promise<void> {
    this.failures.inc({ endpoint, client: registeredClientId ?? 'unknown' });
    return settleClientAuthentication(req, 'failure');
  }
}

@Module({ imports: [MetricsModule], providers: [ClientAuthentications], exports: [ClientAuthentications] })
export class ClientAuthenticationsModule {}
