import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A held sync's stored files: name and gzipped parts. */
export interface StoredFile {
  name: string;
  parts: Buffer[];
}

/** Every statement on `roster_sync_packages` (the worker keeps a held sync's files until it is decided), by tenant and sync. */
@Injectable()
export class SyncPackagesRepository {
  constructor(private readonly ds: DataSource) {}

  async save(tenantId: string, syncId: string, files: readonly StoredFile[]): Promise<void> {
    await this.ds.transaction(async (m) => {
      await m.query('DELETE FROM roster_sync_packages WHERE sync_id = $1 AND tenant_id = $2', [syncId, tenantId]);
      for (const f of files) {
        for (let part = 0; part < f.parts.length; part++) {
          await m.query(
            'INSERT INTO roster_sync_packages (sync_id, file_name, part, tenant_id, data) VALUES ($1, $2, $3, $4, $5)',
            [syncId, f.name, part, tenantId, f.parts[part]],
          );
        }
      }
    });
  }

  /** The files in name and part order; empty when none are stored. */
  async load(tenantId: string, syncId: string): Promise<StoredFile[]> {
    const rows: Array<{ file_name: string; data: Buffer }> = await this.ds.query(
      'SELECT file_name, data FROM roster_sync_packages WHERE sync_id = $1 AND tenant_id = $2 ORDER BY file_name, part',
      [syncId, tenantId],
    );
    const files = new Map<string, Buffer[]>();
    for (const r of rows) files.set(r.file_name, [...(files.get(r.file_name) ?? []), r.data]);
    return [...files].map(([name, parts]) => ({ name, parts }));
  }

  async delete(tenantId: string, syncId: string): Promise<void> {
    await this.ds.query('DELETE FROM roster_sync_packages WHERE sync_id = $1 AND tenant_id = $2', [syncId, tenantId]);
  }
}
