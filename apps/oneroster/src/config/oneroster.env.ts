import { IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { ResourceServerEnv, ToInt, URL_OPTS } from '@edu/config';

/** Configuration of the OneRoster rostering service (validated at boot). */
export class OnerosterEnv extends ResourceServerEnv {
  override PORT = 3001;

  /**
   * Public origin used in GUIDRef `href`s and `Link` headers (e.g. `https://roster.example.org`).
   * Unset: taken from the request's protocol and `Host` header.
   */
  @IsOptional() @IsUrl(URL_OPTS)
  PUBLIC_BASE_URL?: string;

  /**
   * How long a tenant's roster data version is trusted before it is read again (ms). Every
   * cache key (totals, org tree) contains the version, so this bounds how long after an import
   * commits a replica keeps answering from the previous version. 0 = read it on every request.
   */
  @ToInt() @IsInt() @Min(0) @Max(60_000)
  ONEROSTER_DATA_VERSION_TTL_MS = 1_000;

  /** How long a tenant's licences, region, root org and a deployment's settings are cached (ms). */
  @ToInt() @IsInt() @Min(0) @Max(600_000)
  ONEROSTER_TENANT_CACHE_TTL_MS = 5_000;

  /** Entries kept in the per-replica total-count cache (keyed by tenant, data version, request). */
  @ToInt() @IsInt() @Min(0) @Max(10_000_000)
  ONEROSTER_COUNT_CACHE_ENTRIES = 50_000;

  /** Largest roster CSV package (zip) the operator import endpoint accepts, in bytes. */
  @ToInt() @IsInt() @Min(1024) @Max(64 * 1024 ** 3)
  ONEROSTER_IMPORT_MAX_BYTES = 1024 ** 3;

  /**
   * How long the import endpoint waits for an import to finish before answering 202 (ms):
   * small packages get their final report at once, large ones are polled. 0 = always 202.
   */
  @ToInt() @IsInt() @Min(0) @Max(60_000)
  ONEROSTER_IMPORT_WAIT_MS = 5_000;

  /** Imports this process runs at a time; later uploads wait their turn (status `running`). */
  @ToInt() @IsInt() @Min(1) @Max(16)
  ONEROSTER_IMPORT_CONCURRENCY = 1;

  /** Where uploaded packages are stored until imported. Unset: the OS temp directory. */
  @IsOptional() @IsString()
  ONEROSTER_IMPORT_DIR?: string;
}
