import { getQueueToken } from '@nestjs/bullmq';
import { DynamicModule, Inject, Injectable, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Queue } from 'bullmq';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { QUEUES } from '@edu/queue';

/** Credentials the dashboard asks for with HTTP Basic (the platform operator's). */
export interface DashboardCredentials {
  username: string;
  password: string;
}

export interface QueueDashboardOptions {
  /** Mount path, e.g. `/admin/queues`. */
  path: string;
  /** Without credentials the dashboard is not mounted at all (the path answers 404). */
  credentials?: DashboardCredentials;
}

const REALM = 'Queue dashboard';

/**
 * The page loads its scripts, styles, images and data from this origin only (the UI ships its
 * assets in the npm package; its web-font link to a third party is blocked, so the page works
 * offline and tells no one else that an operator opened it).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** `Authorization: Basic …` decoded, or undefined when absent or malformed (RFC 7617). */
export function parseBasicAuth(header: string | undefined): DashboardCredentials | undefined {
  const match = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Compares both parts in constant time (digests of equal length, both always compared), so the
 * answer time tells nothing about how much of a guess was right.
 */
export function credentialsMatch(given: DashboardCredentials | undefined, expected: DashboardCredentials): boolean {
  const g = given ?? { username: '', password: '' };
  const user = timingSafeEqual(digest(g.username), digest(expected.username));
  const pass = timingSafeEqual(digest(g.password), digest(expected.password));
  return given !== undefined && user && pass;
}

/** Express middleware: 401 with a Basic challenge unless the request carries the credentials. */
export function basicAuthGate(expected: DashboardCredentials): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (credentialsMatch(parseBasicAuth(req.headers.authorization), expected)) return next();
    res
      .status(401)
      .set('WWW-Authenticate', `Basic realm="${REALM}", charset="UTF-8"`)
      .set('Cache-Control', 'no-store')
      .json({ error: 'unauthorized', message: 'The queue dashboard needs the operator credentials (HTTP Basic)' });
  };
}

const dashboardHeaders: RequestHandler = (_req, res, next) => {
  res.set('Content-Security-Policy', DASHBOARD_CSP);
  res.set('X-Content-Type-Options', 'nosniff');
  res.set('Referrer-Policy', 'no-referrer');
  next();
};

const OPTIONS = Symbol('QUEUE_DASHBOARD_OPTIONS');

/**
 * Mounts Bull Board for the webhook delivery queue on the app's Express instance. It runs when
 * the app initialises, after Nest registered its routes and before its not-found handler, so
 * requests under the path never reach a controller: the auth guard does not see them and the
 * Basic gate above is their only check. The board is read-only: delivery state of record is in
 * PostgreSQL, so retrying, promoting or removing jobs from the board would bypass the delivery
 * schedule and the delivery log (redelivery is an API operation).
 */
@Injectable()
export class QueueDashboardMount implements OnModuleInit {
  private readonly logger = new Logger('QueueDashboard');

  constructor(
    private readonly host: HttpAdapterHost,
    @Inject(getQueueToken(QUEUES.webhookDeliveries)) private readonly queue: Queue,
    @Inject(OPTIONS) private readonly options: QueueDashboardOptions,
  ) {}

  async onModuleInit(): Promise<void> {
    const { path, credentials } = this.options;
    if (!credentials) {
      this.logger.log(`queue dashboard off (no operator credentials configured); ${path} answers 404`);
      return;
    }
    // Loaded here, not at import: a process without operator credentials does not pay for the
    // UI packages.
    const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
      import('@bull-board/api'),
      import('@bull-board/api/bullMQAdapter'),
      import('@bull-board/express'),
    ]);
    const board = new ExpressAdapter();
    board.setBasePath(path);
    createBullBoard({
      queues: [
        new BullMQAdapter(this.queue, {
          readOnlyMode: true,
          description: 'Webhook deliveries: one job per delivery id; the delivery log in PostgreSQL is the record',
        }),
      ],
      serverAdapter: board,
      options: { uiConfig: { boardTitle: 'Delivery queue', hideDocsLink: true } },
    });
    const app = this.host.httpAdapter.getInstance<Express>();
    app.use(path, dashboardHeaders, basicAuthGate(credentials), board.getRouter() as RequestHandler);
  }
}

/** Bull Board at `options.path` behind HTTP Basic; needs `QueueModule.forRoot` in the same app. */
@Module({})
export class QueueDashboardModule {
  static forRoot(options: QueueDashboardOptions): DynamicModule {
    return {
      module: QueueDashboardModule,
      providers: [{ provide: OPTIONS, useValue: options }, QueueDashboardMount],
    };
  }
}
