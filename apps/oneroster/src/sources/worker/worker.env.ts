import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { BaseEnv, Secret, ToInt } from '@edu/config';
import { WithRosterSources } from '../sources.env';

const Int = (min: number, max: number): PropertyDecorator => {
  return (target, key) => {
    ToInt()(target, key);
    IsInt()(target, key);
    Min(min)(target, key);
    Max(max)(target, key);
  };
};

/**
 * Configuration of the roster sync worker (`npm start` runs it as `roster-sync`; k8s as its own
 * Deployment): the queue, how sources are read, and the SFTP endpoint. Validated at boot.
 */
export class RosterSyncWorkerEnv extends WithRosterSources(BaseEnv) {
  /** Health and metrics port (no API). */
  override PORT = 3004;

  @Secret()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// URL (the roster sync queue)' })
  REDIS_URL = '';

  /** Syncs this process runs at once (always of different tenants). */
  @Int(1, 32) ROSTER_SYNC_CONCURRENCY = 2;
  /** A worker that dies holds its syncs for at most this long. */
  @Int(5_000, 600_000) ROSTER_SYNC_LOCK_MS = 30_000;
  /** How long a sync waits before trying again when its tenant is busy (another sync or an upload). */
  @Int(100, 600_000) ROSTER_SYNC_BUSY_RETRY_MS = 5_000;
  /** Where pulled packages are written while a sync runs. Unset: the OS temp directory. */
  @IsOptional() @IsString() ROSTER_SYNC_WORK_DIR?: string;

  /** A source request not answered within this time fails (after the retries). */
  @Int(1_000, 600_000) ROSTER_SYNC_HTTP_TIMEOUT_MS = 30_000;
  @Int(1, 10_000) ROSTER_SYNC_PAGE_SIZE = 1_000;
  /** Pages read at once from a source that gives X-Total-Count. */
  @Int(1, 16) ROSTER_SYNC_PARALLEL_PAGES = 4;
  /** More pages than this in one collection fails the sync (a source paging forever). */
  @Int(1, 1_000_000) ROSTER_SYNC_MAX_PAGES = 20_000;
  @Int(1_024, 1_073_741_824) ROSTER_SYNC_MAX_ANSWER_BYTES = 64 * 1024 * 1024;
  /** Retries of 429, 5xx and failed connections; the wait doubles from ROSTER_SYNC_RETRY_BASE_MS unless Retry-After says. */
  @Int(0, 20) ROSTER_SYNC_RETRIES = 5;
  @Int(1, 600_000) ROSTER_SYNC_RETRY_BASE_MS = 1_000;
  /** Longest Retry-After honoured; a source asking for more fails the sync. */
  @Int(0, 3_600_000) ROSTER_SYNC_RETRY_MAX_WAIT_MS = 120_000;
  /** A delta read starts this long before the previous read started (clock skew; re-reading is harmless). */
  @Int(0, 86_400_000) ROSTER_SYNC_DELTA_OVERLAP_MS = 300_000;

  /** How often syncs whose queue job Redis lost are queued again, and schedules brought in line. */
  @Int(100, 3_600_000) ROSTER_SYNC_SWEEP_INTERVAL_MS = 60_000;
  /** A queued or running sync untouched this long with no job in Redis is queued again. */
  @Int(0, 86_400_000) ROSTER_SYNC_SWEEP_AGE_MS = 120_000;

  /** SFTP endpoint port; 0 = no SFTP endpoint in this process. */
  @Int(0, 65_535) ROSTER_SFTP_PORT = 2222;
  @IsString() ROSTER_SFTP_BIND = '0.0.0.0';
  /** A listening socket inherited from the parent process (its descriptor), served instead of ROSTER_SFTP_PORT (as LISTEN_FD). */
  @IsOptional() @Int(3, 65_535) ROSTER_SFTP_LISTEN_FD?: number;
  /** The endpoint's SSH host key (PEM or OpenSSH private key text). Required with an SFTP port, or ROSTER_SFTP_HOST_KEY_FILE. */
  @Secret() @IsOptional() @IsString() ROSTER_SFTP_HOST_KEY?: string;
  @IsOptional() @IsString() ROSTER_SFTP_HOST_KEY_FILE?: string;
  /** Folder holding one folder per SFTP user (jailed there). Shared by replicas (ReadWriteMany) or one replica. */
  @IsOptional() @IsString() ROSTER_SFTP_ROOT?: string;
  /** How often user folders are looked at for complete packages. */
  @Int(100, 60_000) ROSTER_SFTP_SCAN_INTERVAL_MS = 5_000;
  /** Failed sign-ins allowed per user name and address, and per address, in a window; then refused until it ends. */
  @Int(1, 1_000) ROSTER_SFTP_FAILURES_PER_USER_ADDRESS = 5;
  @Int(1, 10_000) ROSTER_SFTP_FAILURES_PER_ADDRESS = 30;
  @Int(1, 86_400) ROSTER_SFTP_FAILURE_WINDOW_SECONDS = 900;
}
