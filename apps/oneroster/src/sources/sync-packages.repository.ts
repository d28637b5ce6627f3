import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A held sync's stored files: name and gzipped parts. */
export interface StoredFile {
  name: string;
  parts: Buffer[];
}

/** Every statement on `roster_sync_packages` (the worker keeps a held sync's files until it is decided). */
@Injectable()
export class SyncPackagesRepository {
  constructor(private readonly ds: DataSource) {}

  async save(syncId: string, tenantId: string, files: readonly StoredFile[]): Promise<void> {
    await this.ds.transaction(async (m) => {
      await m.query('DELETE FROM roster_sync_packages WHERE sync_id = $1', [syncId]);
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
  async load(syncId: string): Promise<StoredFile[]> {
    const rows: Array<{ file_name: string; data: Buffer }> = await this.ds.query(
      'SELECT file_name, data FROM roster_sync_packages WHERE sync_id = $1 ORDER BY file_name, part',
      [syncId],
    );
    const files = new Map<string, Buffer[]>();
    for (const r of rows) files.set(r.file_name, [...(files.get(r.file_name) ?? []), r.data]);
    return [...files].map(([name, parts]) => ({ name, parts }));
  }

  async delete(syncId: string): Promise<void> {
    await this.ds.query('DELETE FROM roster_sync_packages WHERE sync_id = $1', [syncId]);
  }
}
