import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ApiError, ApiErrorCode, isUuid, type Principal } from '@edu/domain';
import { OnerosterEnv } from '../oneroster.env';
import { RosterImportRepository } from './roster-import.repository';
import { reportView, toImportView, type RosterImportView } from './roster-import.views';
import { runImport } from './import-runner';
import type { ImportReport } from './roster-importer';
import { openRosterPackage, PackageError } from './roster-package';
import { storeUpload, UploadTooLargeError } from './upload-store';

export interface ImportUpload {
  body: Readable;
  contentType: string | undefined;
  contentLength: number | undefined;
}

export interface AcceptedImport {
  /** `running`: still importing when the wait ended (202); otherwise the final outcome. */
  view: RosterImportView;
}

const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed'];

/** Counting semaphore: imports this process runs at once. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/** How often a process says which imports it still runs (or queues). */
export const IMPORT_HEARTBEAT_MS = 10_000;
/** An import nobody has spoken for this long is failed: its process is gone. */
export const IMPORT_ABANDONED_AFTER_MS = 60_000;

/**
 * Operator imports of roster CSV packages (design: imports are jobs). An upload is stored to a
 * file and accepted as a `running` import; the import runs in this process (a worker thread),
 * one transaction on its own connection. The request waits up to ONEROSTER_IMPORT_WAIT_MS for the outcome, so small
 * packages are answered with their final report and large ones with 202 to be polled.
 */
@Injectable()
export class RosterImportsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RosterImports');
  private readonly slots: Slots;
  /** Imports running in this process: id -> tenant (to fail them at shutdown). */
  private readonly jobs = new Map<string, string>();
  private heartbeats: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: RosterImportRepository,
    private readonly env: OnerosterEnv,
  ) {
    this.slots = new Slots(env.ONEROSTER_IMPORT_CONCURRENCY);
  }

  private assertOperator(who: Principal): void {
    if (who.kind !== 'operator')
      throw new ApiError(ApiErrorCode.InsufficientScope, 'Roster imports need the operator credentials');
  }

  private async tenant(who: Principal, rawId: string): Promise<string> {
    this.assertOperator(who);
    const tenantId = rawId.toLowerCase();
    if (!isUuid(tenantId) || !(await this.repo.tenantExists(tenantId))) throw ApiError.notFound('Tenant');
    return tenantId;
  }

  async accept(who: Principal, rawTenantId: string, upload: ImportUpload): Promise<AcceptedImport> {
    const tenantId = await this.tenant(who, rawTenantId);
    const type = (upload.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (!ZIP_TYPES.includes(type)) {
      upload.body.resume();
      throw new ApiError(
        ApiErrorCode.UnsupportedMediaType,
        'Send the OneRoster CSV package as the body with Content-Type: application/zip',
      );
    }
    const dir = this.env.ONEROSTER_IMPORT_DIR ?? tmpdir();
    const file = path.join(dir, `roster-import-${randomUUID()}.zip`);
    let size: number;
    try {
      size = await storeUpload(upload.body, file, this.env.ONEROSTER_IMPORT_MAX_BYTES, upload.contentLength);
    } catch (err) {
      if (err instanceof UploadTooLargeError) throw new ApiError(ApiErrorCode.PayloadTooLarge, err.message);
      throw new ApiError(ApiErrorCode.InvalidRequest, 'The upload could not be read');
    }
    try {
      // A body that is not a zip is refused at once, before anything is recorded.
      const pkg = await openRosterPackage(file);
      await pkg.close();
    } catch (err) {
      await fs.rm(file, { force: true });
      if (err instanceof PackageError)
        throw new ApiError(
          ApiErrorCode.InvalidRequest,
          `The body is not a usable OneRoster CSV package: ${err.message}`,
        );
      throw err;
    }
    const row = await this.repo.createRunning(tenantId, `operator upload (${size} bytes)`);
    const job = this.run(row.id, tenantId, file, row.source);
    this.jobs.set(row.id, tenantId);
    job.then(
      () => this.jobs.delete(row.id),
      () => this.jobs.delete(row.id),
    );
    const wait = this.env.ONEROSTER_IMPORT_WAIT_MS;
    const outcome = await Promise.race([
      job,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), wait).unref()),
    ]);
    return { view: outcome ? reportView(outcome, row.id) : toImportView(row) };
  }

  private async run(id: string, tenantId: string, file: string, source: string): Promise<ImportReport> {
    await this.slots.acquire();
    try {
      const report = await runImport({
        databaseUrl: this.env.DATABASE_URL,
        location: file,
        tenantId,
        source,
        importId: id,
      });
      this.logger.log(
        { importId: id, tenantId, status: report.status, rows: report.rows, errors: report.errorCount },
        'Roster import finished',
      );
      return report;
    } catch (err) {
      const errorId = randomUUID();
      this.logger.error({ err, errorId, importId: id, tenantId }, 'Roster import failed unexpectedly');
      await this.repo
        .failIfRunning(tenantId, id, `the import failed unexpectedly (error id ${errorId}); nothing was written`)
        .catch(() => undefined);
      throw new ApiError(ApiErrorCode.Internal, `The import failed unexpectedly (error id ${errorId})`);
    } finally {
      await fs.rm(file, { force: true }).catch(() => undefined);
      this.slots.release();
    }
  }

  async get(who: Principal, rawTenantId: string, importId: string): Promise<RosterImportView> {
    const tenantId = await this.tenant(who, rawTenantId);
    const row = isUuid(importId) ? await this.repo.get(tenantId, importId.toLowerCase()) : undefined;
    if (!row) throw ApiError.notFound('Import');
    return toImportView(row);
  }

  async list(who: Principal, rawTenantId: string): Promise<RosterImportView[]> {
    const tenantId = await this.tenant(who, rawTenantId);
    return (await this.repo.list(tenantId, 50)).map(toImportView);
  }

  /**
   * A process that dies without a word (SIGKILL, a lost machine) leaves its imports `running`
   * (their transactions rolled back with its connections): every process says which imports it
   * still runs, and fails the ones nobody has spoken for in a while.
   */
  onApplicationBootstrap(): void {
    this.heartbeats = setInterval(() => void this.beat(), IMPORT_HEARTBEAT_MS);
    this.heartbeats.unref();
  }

  private async beat(): Promise<void> {
    try {
      await this.repo.heartbeat([...this.jobs.keys()]);
      await this.failAbandoned();
    } catch (err) {
      this.logger.warn({ err }, 'Cannot record the running imports; trying again shortly');
    }
  }

  /** Fails running imports whose process went quiet; how many. */
  async failAbandoned(): Promise<number> {
    const failed = await this.repo.failAbandoned(
      IMPORT_ABANDONED_AFTER_MS,
      'the process running the import stopped without finishing it; nothing was written',
    );
    if (failed.length > 0) this.logger.warn({ imports: failed }, 'Failed imports whose process stopped');
    return failed.length;
  }

  /** Imports cut short by shutdown roll back; their log rows say so. */
  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.heartbeats);
    for (const [id, tenantId] of this.jobs) {
      await this.repo
        .failIfRunning(tenantId, id, 'the service stopped during the import; nothing was written')
        .catch(() => undefined);
    }
  }
}
