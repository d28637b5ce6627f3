import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { RosterSourceEntity, type RosterSourceSchedule } from '@edu/persistence';

/** A unique SFTP user name taken by another source. */
export class SftpUsernameTaken extends Error {}

export type NewRosterSource = Pick<
  RosterSourceEntity,
  | 'tenantId'
  | 'type'
  | 'name'
  | 'enabled'
  | 'settings'
  | 'secretEncrypted'
  | 'sftpUsername'
  | 'sftpPasswordHash'
  | 'schedule'
>;
export type RosterSourceChanges = Partial<Omit<NewRosterSource, 'tenantId' | 'type'>>;

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(err: unknown): boolean {
  return (err as { driverError?: { code?: string }; code?: string }).driverError?.code === UNIQUE_VIOLATION;
}

/** Every statement on `roster_sources` (the API's CRUD, the worker's cursor and schedule reads). */
@Injectable()
export class RosterSourcesRepository {
  private readonly repo: Repository<RosterSourceEntity>;

  constructor(private readonly ds: DataSource) {
    this.repo = ds.getRepository(RosterSourceEntity);
  }

  async tenantExists(tenantId: string): Promise<boolean> {
    const rows: unknown[] = await this.ds.query('SELECT 1 FROM tenants WHERE id = $1', [tenantId]);
    return rows.length > 0;
  }

  async create(source: NewRosterSource): Promise<RosterSourceEntity> {
    try {
      return await this.repo.save(this.repo.create(source));
    } catch (err) {
      if (isUniqueViolation(err)) throw new SftpUsernameTaken();
      throw err;
    }
  }

  get(tenantId: string, id: string): Promise<RosterSourceEntity | null> {
    return this.repo.findOneBy({ tenantId, id });
  }

  list(tenantId: string): Promise<RosterSourceEntity[]> {
    return this.repo.find({ where: { tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async update(source: RosterSourceEntity, changes: RosterSourceChanges): Promise<RosterSourceEntity> {
    try {
      return await this.repo.save(this.repo.merge(source, changes));
    } catch (err) {
      if (isUniqueViolation(err)) throw new SftpUsernameTaken();
      throw err;
    }
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const res = await this.repo.delete({ tenantId, id });
    return (res.affected ?? 0) > 0;
  }

  /** The enabled SFTP source signing in with this user name (the SFTP endpoint). */
  sftpSource(username: string): Promise<RosterSourceEntity | null> {
    return this.repo.findOneBy({ sftpUsername: username, type: 'sftp', enabled: true });
  }

  /** Enabled SFTP sources (the package watcher's folders). */
  sftpSources(): Promise<RosterSourceEntity[]> {
    return this.repo.findBy({ type: 'sftp', enabled: true });
  }

  /** Every enabled scheduled source (the worker keeps the queue's schedulers equal to this). */
  async scheduled(): Promise<Array<{ id: string; tenantId: string; schedule: RosterSourceSchedule }>> {
    const rows = await this.repo
      .createQueryBuilder('s')
      .select(['s.id', 's.tenantId', 's.schedule'])
      .where('s.enabled AND s.schedule IS NOT NULL')
      .getMany();
    return rows.map((r) => ({ id: r.id, tenantId: r.tenantId, schedule: r.schedule! }));
  }

  /** After an applied sync: where the next delta read starts, and (full reads) when the last full read was. */
  async advance(tenantId: string, id: string, cursor: string | null, fullReadAt: Date | null): Promise<void> {
    const changes: Partial<RosterSourceEntity> = {};
    if (cursor) changes.deltaCursor = cursor;
    if (fullReadAt) changes.lastFullSyncAt = fullReadAt;
    if (Object.keys(changes).length > 0) await this.repo.update({ tenantId, id }, changes);
  }
}
