import { IsInt, IsOptional, IsString, IsUrl, Max, Min, ValidateIf } from 'class-validator';
import { ResourceServerEnv, ToInt, WithTrafficControl } from '@edu/config';
import { WithRosterEvents } from './events/events.env';
import { WithRosterSources } from './sources/sources.env';

/** An origin (optionally with a path prefix) to put links on: no credentials, query or fragment. */
const PUBLIC_URL_OPTS = {
  protocols: ['http', 'https'],
  require_protocol: true,
  require_tld: false,
  disallow_auth: true,
  allow_query_components: false,
  allow_fragments: false,
};

/** Configuration of the OneRoster rostering service (validated at boot). */
export class OnerosterEnv extends WithRosterEvents(WithRosterSources(WithTrafficControl(ResourceServerEnv))) {
  override PORT = 3001;

  /**
   * Public URL of this host (`{unified_url}` or `{regional_url}`, e.g.
   * `https://au-nsw.api.edu.example`): every GUIDRef `href` and `Link` URL is built on it. Never
   * taken from the request (`Host`, `X-Forwarded-*`, `Forwarded`): a client must not choose the
   * host written into answers and caches, and behind a TLS-terminating ingress the request says
   * `http`. Required unless NODE_ENV is `development`, where it defaults to
   * `http://localhost:<PORT>` (see `publicBaseUrl`).
   */
  @ValidateIf((env: OnerosterEnv) => env.NODE_ENV !== 'development' || env.PUBLIC_BASE_URL !== undefined)
  @IsUrl(PUBLIC_URL_OPTS, {
    message:
      'PUBLIC_BASE_URL must be the public http(s) URL of this service (e.g. https://au-nsw.api.edu.example); it is required unless NODE_ENV=development',
  })
  PUBLIC_BASE_URL?: string;

  /**
   * How long a tenant's roster data version is trusted before it is read again (ms), where a
   * path does not read it itself: every read (`caching/`) reads it per request and builds on
   * that, so this only bounds other uses, such as a bulk POST's check of its parents. 0 = read
   * it every time.
   */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(60_000)
  ONEROSTER_DATA_VERSION_TTL_MS = 1_000;

  /** How long a tenant's licences, region, root org and a deployment's settings are cached (ms). 0 = read them on every request. */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(600_000)
  ONEROSTER_TENANT_CACHE_TTL_MS = 5_000;

  /** Entries kept in the per-replica total-count cache (keyed by tenant, data version, request). */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  ONEROSTER_COUNT_CACHE_ENTRIES = 50_000;

  /**
   * Bytes of answers this replica keeps to send again (LRU; keyed by data versions, visibility
   * and request, so never stale and never shared between deployments). 0 = keep none; ETags and
   * 304 answers work either way.
   */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(16 * 1024 ** 3)
  ONEROSTER_RESPONSE_CACHE_BYTES = 64 * 1024 ** 2;

  /** Largest roster CSV package (zip) the operator import endpoint accepts, in bytes. */
  @ToInt()
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 ** 3)
  ONEROSTER_IMPORT_MAX_BYTES = 1024 ** 3;

  /**
   * How long the import endpoint waits for an import to finish before answering 202 (ms):
   * small packages get their final report at once, large ones are polled. 0 = always 202.
   */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(60_000)
  ONEROSTER_IMPORT_WAIT_MS = 5_000;

  /** Imports this process runs at a time; later uploads wait their turn (status `running`). */
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(16)
  ONEROSTER_IMPORT_CONCURRENCY = 1;

  /** Where uploaded packages are stored until imported. Unset: the OS temp directory. */
  @IsOptional()
  @IsString()
  ONEROSTER_IMPORT_DIR?: string;
}

/** The URL links are built on, without a trailing slash: `PUBLIC_BASE_URL`, or in development `http://localhost:<PORT>`. */
export function publicBaseUrl(env: OnerosterEnv): string {
  return (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
}
