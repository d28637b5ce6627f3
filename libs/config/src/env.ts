import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';
import { DEFAULT_ONEROSTER_SCOPE_BASE, DEFAULT_ONEROSTER_V1P2_SCOPE_BASE, REGION_IDS } from '@edu/domain';
import { Secret } from './load-config';
import { ToInt } from './transforms';

const URL_OPTS = { require_tld: false, require_protocol: true } as const;
const isProduction = (o: { NODE_ENV: string }) => o.NODE_ENV === 'production';

/** Variables every process reads. */
export class BaseEnv {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV = 'development';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** Port of the HTTP server (APIs) or of the health/metrics server (worker). */
  @ToInt()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /**
   * A listening socket inherited from the parent process, by descriptor number: served instead
   * of binding PORT on HOST (a test hands one over so that the port is known, and held, before
   * the process starts).
   */
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(3)
  LISTEN_FD?: number;

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  @Secret()
  DATABASE_URL = '';

  @ToInt()
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  /** `{schema_base}`: namespace prefix of the service's own scope identifiers. */
  @IsUrl(URL_OPTS)
  SCHEMA_BASE = 'https://api.edu.example';

  /** `{oneroster_scope_base}` */
  @IsUrl(URL_OPTS)
  ONEROSTER_SCOPE_BASE = DEFAULT_ONEROSTER_SCOPE_BASE;

  /** Base of the OneRoster v1.2 scope URIs (design §9). */
  @IsUrl(URL_OPTS)
  ONEROSTER_V1P2_SCOPE_BASE = DEFAULT_ONEROSTER_V1P2_SCOPE_BASE;

  /** `iss` of access tokens. */
  @IsUrl(URL_OPTS)
  TOKEN_ISSUER = 'http://localhost:3000';

  /** `aud` of access tokens: the platform's resource servers. */
  @IsString()
  @MinLength(1)
  TOKEN_AUDIENCE = 'https://api.edu.example';
}

/** HTTP APIs: body limits. */
export class HttpServiceEnv extends BaseEnv {
  /** Largest JSON body accepted (bytes). */
  @ToInt()
  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES = 1_048_576;
}

/** Services that verify access tokens issued by the identity service. */
export class ResourceServerEnv extends HttpServiceEnv {
  @IsUrl(URL_OPTS)
  JWKS_URL = 'http://localhost:3000/.well-known/jwks.json';

  /** How long a fetched JWKS is trusted before it is fetched again (seconds). */
  @ToInt()
  @IsInt()
  @Min(1)
  JWKS_CACHE_SECONDS = 600;

  /** Regional host (`AU-NSW`, `SG`); unset = unified host serving every region. */
  @IsOptional()
  @IsIn(REGION_IDS as unknown as string[])
  SERVICE_REGION?: string;
}

export { isProduction, URL_OPTS };
