import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** How a school's roster reaches the platform (design §11: SIS sources). */
export type RosterSourceType = 'oneroster-rest' | 'sftp' | 'upload';

/** When a source syncs by itself: every N minutes, or a cron expression in a time zone. */
export type RosterSourceSchedule = { interval_minutes: number } | { cron: string; timezone?: string };

/** Non-secret settings of a `oneroster-rest` source (the client secret is `secret_encrypted`). */
export interface OneRosterRestSettings {
  version: '1.1' | '1.2';
  base_url: string;
  token_url: string;
  client_id: string;
  scope?: string;
  /** Read changes only (`filter=dateLastModified>`) between full reads; default true. */
  delta: boolean;
  /** A scheduled sync reads everything when the last full read is older than this; default 24. */
  full_sync_interval_hours: number;
}

/** Non-secret settings of an `sftp` source (the password is `sftp_password_hash`). */
export interface SftpSettings {
  /** OpenSSH public keys (`ssh-ed25519 AAAA...`) that may sign in as the source's user. */
  public_keys: string[];
  /** A package is taken once its files have not changed for this long. */
  stable_seconds: number;
}

export type RosterSourceSettings = OneRosterRestSettings | SftpSettings | Record<string, never>;

/** A tenant's roster source. Every statement on it is in apps/oneroster/src/sources/roster-sources.repository.ts. */
@Entity({ name: 'roster_sources' })
export class RosterSourceEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_roster_sources' })
  id: string;

  @Index('IDX_roster_sources_tenant')
  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @Column({ type: 'text' })
  type: RosterSourceType;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: RosterSourceSettings;

  /** The `oneroster-rest` client secret, sealed with KEY_ENCRYPTION_KEY (write-only in the API). */
  @Column({ type: 'text', name: 'secret_encrypted', nullable: true })
  secretEncrypted: string | null;

  /** The SFTP user name (unique across tenants: it chooses the tenant at sign-in). */
  @Index('UQ_roster_sources_sftp_username', { unique: true })
  @Column({ type: 'text', name: 'sftp_username', nullable: true })
  sftpUsername: string | null;

  /** scrypt hash of the SFTP password (verified, never read back). */
  @Column({ type: 'text', name: 'sftp_password_hash', nullable: true })
  sftpPasswordHash: string | null;

  @Column({ type: 'jsonb', nullable: true })
  schedule: RosterSourceSchedule | null;

  /** Where the next delta read starts (`dateLastModified>` this instant, ISO 8601); null = full read next. */
  @Column({ type: 'text', name: 'delta_cursor', nullable: true })
  deltaCursor: string | null;

  @Column({ type: 'timestamptz', name: 'last_full_sync_at', nullable: true })
  lastFullSyncAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
