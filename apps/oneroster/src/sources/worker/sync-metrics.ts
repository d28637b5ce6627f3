import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsRegistry } from '@edu/http';

/** Sync metrics per tenant (names in sources/README.md). */
@Injectable()
export class SyncMetrics {
  readonly syncs: Counter<'tenant' | 'source_type' | 'status'>;
  readonly duration: Histogram<'tenant' | 'source_type' | 'status'>;
  readonly rows: Counter<'tenant' | 'source_type'>;
  readonly lastSuccess: Gauge<'tenant'>;
  readonly held: Counter<'tenant'>;
  readonly sftpLogins: Counter<'outcome'>;

  constructor(metrics: MetricsRegistry) {
    const registers = [metrics.registry];
    const labels = ['tenant', 'source_type', 'status'] as const;
    this.syncs = new Counter({
      name: 'roster_syncs_total',
      help: 'Syncs ended, by tenant, source type and status',
      labelNames: labels,
      registers,
    });
    this.duration = new Histogram({
      name: 'roster_sync_duration_seconds',
      help: 'Duration of syncs (read, diff and import), by tenant, source type and status',
      labelNames: labels,
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
      registers,
    });
    this.rows = new Counter({
      name: 'roster_sync_rows_total',
      help: 'Records read by syncs, by tenant and source type',
      labelNames: ['tenant', 'source_type'],
      registers,
    });
    this.lastSuccess = new Gauge({
      name: 'roster_sync_last_success_timestamp_seconds',
      help: 'When each tenant last had a sync applied',
      labelNames: ['tenant'],
      registers,
    });
    this.held = new Counter({
      name: 'roster_syncs_held_total',
      help: 'Syncs held by the mass-deletion guard, by tenant',
      labelNames: ['tenant'],
      registers,
    });
    this.sftpLogins = new Counter({
      name: 'roster_sftp_logins_total',
      help: 'SFTP sign-ins by outcome (ok, refused, rate_limited)',
      labelNames: ['outcome'],
      registers,
    });
  }
}
