import type {
  RosterSourceEntity,
  RosterSyncEntity,
  RosterSyncIssue,
  RosterSyncMode,
  RosterSyncStatus,
} from '@edu/persistence';

/** A package ready in a folder, and what reading it found. */
export interface AcquiredPackage {
  dir: string;
  mode: RosterSyncMode;
  rows: number;
  warnings: RosterSyncIssue[];
  origin: string;
  /** Where the source's next delta read starts once this sync is applied. */
  nextCursor?: string;
  /** Set when this was a full read (the source remembers when the last one was). */
  fullReadAt?: Date;
}

/** Gets a sync's package from its source (a pull, an SFTP drop), and hears how the sync ended. */
export interface PackageAcquirer {
  acquire(source: RosterSourceEntity, sync: RosterSyncEntity, workDir: string): Promise<AcquiredPackage>;
  /** After the sync ended (archive an SFTP package with its report). */
  ended?(source: RosterSourceEntity, sync: RosterSyncEntity, status: RosterSyncStatus): Promise<void>;
}
