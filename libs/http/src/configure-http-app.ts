import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { verifyJsonShape } from './json-body-shape';
import { JsonErrorFilter } from './json-error.filter';
import { createValidationPipe } from './validation';

export interface HttpAppOptions {
  bodyLimitBytes: number;
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
  // Every JSON body's nesting depth and container widths are checked on the raw bytes before
  // parsing (json-body-shape.ts). Nest's typings omit `verify` only because `rawBody` uses it.
  const jsonShapeCheck = { verify: verifyJsonShape } as object;
  app.useBodyParser('json', { limit: options.bodyLimitBytes, type: ['application/json', 'application/*+json'], ...jsonShapeCheck });
  app.useBodyParser('urlencoded', { limit: options.bodyLimitBytes, extended: false, parameterLimit: 100 });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(options.errorFilter ?? new JsonErrorFilter());
  app.enableShutdownHooks();
  return app;
}
