import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { json } from 'express';
import { Logger } from 'nestjs-pino';
import { JSON_SHAPE_LIMITS, jsonShapeVerifier, verifyJsonShape } from './json-body-shape';
import { JsonErrorFilter } from './json-error.filter';
import { createValidationPipe } from './validation';

/** A route that takes larger JSON documents than the app's default limits allow. */
export interface LargeJsonRoute {
  path: string;
  bodyLimitBytes: number;
  /** Objects and arrays the body may hold (the default is 50,000). */
  maxContainers: number;
}

export interface HttpAppOptions {
  bodyLimitBytes: number;
  /** Routes with their own, larger JSON limits (their parser runs first; the default one then skips the body). */
  largeJsonRoutes?: readonly LargeJsonRoute[];
  /**
   * Express' `trust proxy`: which proxies may name the client's address in X-Forwarded-For (the
   * address rate limits count by). Default false: the connection's peer is the client.
   */
  trustProxy?: boolean | number | string[];
  /** Error renderer; defaults to the `{error, message}` JSON filter. */
  errorFilter?: Parameters<INestApplication['useGlobalFilters']>[0];
}

/**
 * Everything main.ts and the integration tests must share. The app must be created with
 * `{ bodyParser: false, bufferLogs: true }` (and without `rawBody`, which would replace the
 * `verify` hook) so the parsers below, with their limits, are the only body parsers.
 */
export function configureHttpApp(app: NestExpressApplication, options: HttpAppOptions): NestExpressApplication {
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('trust proxy', options.trustProxy ?? false);
  // Every JSON body's nesting depth and container widths are checked on the raw bytes before
  // parsing (json-body-shape.ts). Nest's typings omit `verify` only because `rawBody` uses it.
  const jsonShapeCheck = { verify: verifyJsonShape } as object;
  const jsonTypes = ['application/json', 'application/*+json'];
  for (const route of options.largeJsonRoutes ?? []) {
    app.use(
      route.path,
      json({
        limit: route.bodyLimitBytes,
        type: jsonTypes,
        verify: jsonShapeVerifier({ ...JSON_SHAPE_LIMITS, maxContainers: route.maxContainers }),
      }),
    );
  }
  app.useBodyParser('json', { limit: options.bodyLimitBytes, type: jsonTypes, ...jsonShapeCheck });
  app.useBodyParser('urlencoded', { limit: options.bodyLimitBytes, extended: false, parameterLimit: 100 });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(options.errorFilter ?? new JsonErrorFilter());
  app.enableShutdownHooks();
  return app;
}
