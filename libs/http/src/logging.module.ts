import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import { stdSerializers } from 'pino';
import type { Options } from 'pino-http';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the caller's X-Request-Id when it is sane, otherwise makes one; echoes it back. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** A request as the request log shows it: never its headers (credentials, cookies). */
interface LoggedRequest {
  id: string;
  method: string;
  url: string;
  originalUrl?: string;
}

/**
 * The request log's options: JSON lines with request ids, credentials redacted, 4xx at warn and
 * 5xx at error. `wrapSerializers: false`: the serializers below take the request and response
 * themselves, so pino-http does not first copy every header of every request into an object
 * that the request serializer then drops (that copy was made for each request, logged or not).
 */
export function requestLogOptions(options: { level: string; service: string }): Options {
  return {
    level: options.level,
    base: { service: options.service },
    genReqId: requestIdFor,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.body.client_secret',
        '*.client_secret',
        '*.privateKey',
      ],
      censor: '***',
    },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') || req.url === '/metrics' },
    wrapSerializers: false,
    serializers: {
      // Express rewrites `url` inside mounted routers; `originalUrl` is what the client asked for.
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: req.originalUrl ?? req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: stdSerializers.err,
    },
  };
}

/** JSON logs (pino) with request ids; credentials are redacted. */
@Module({})
export class LoggingModule {
  static forRoot(options: { level: string; service: string }): DynamicModule {
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot({ pinoHttp: requestLogOptions(options) })],
      exports: [LoggerModule],
    };
  }
}
