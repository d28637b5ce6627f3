import type { AddressInfo } from 'node:net';
import { Logger, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfigOrExit, trustProxyValue, type BaseEnv } from '@edu/config';
import { configureHttpApp, type HttpAppOptions } from './configure-http-app';

export interface HttpServiceDefinition<E extends BaseEnv> {
  name: string;
  envClass: new () => E;
  module: (env: E) => DynamicModule;
  bodyLimitBytes?: (env: E) => number;
  largeJsonRoutes?: (env: E) => HttpAppOptions['largeJsonRoutes'];
  errorFilter?: HttpAppOptions['errorFilter'];
  /** Extra setup before listening (OpenAPI document, ...). */
  beforeListen?: (app: NestExpressApplication, env: E) => void;
}

/** main.ts of every HTTP process: validated config, shared HTTP setup, listen. */
export async function runHttpService<E extends BaseEnv>(
  def: HttpServiceDefinition<E>,
): Promise<NestExpressApplication> {
  const env = loadConfigOrExit(def.envClass, def.name);
  const app = await NestFactory.create<NestExpressApplication>(def.module(env), {
    bodyParser: false,
    bufferLogs: true,
  });
  configureHttpApp(app, {
    bodyLimitBytes: def.bodyLimitBytes?.(env) ?? 1_048_576,
    largeJsonRoutes: def.largeJsonRoutes?.(env),
    errorFilter: def.errorFilter,
    trustProxy: trustProxyValue((env as { TRUST_PROXY?: string }).TRUST_PROXY),
  });
  def.beforeListen?.(app, env);
  const where = env.LISTEN_FD === undefined ? `${env.HOST}:${env.PORT}` : `inherited socket ${env.LISTEN_FD}`;
  try {
    await listen(app, env);
  } catch (err) {
    // Typically EADDRINUSE: say which port, then stop (a half-started service helps nobody).
    const reason = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `${JSON.stringify({ level: 'fatal', service: def.name, msg: `Cannot listen on ${where}: ${reason}` })}\n`,
    );
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  // The address it got: with PORT=0 (any free port) this line is how to learn it.
  const { address, port } = app.getHttpServer().address() as AddressInfo;
  new Logger(def.name).log({ address, port }, `listening on ${address}:${port}`);
  return app;
}

/** Listens on the socket handed over by the parent process (LISTEN_FD), else on PORT and HOST. */
async function listen(app: NestExpressApplication, env: BaseEnv): Promise<void> {
  if (env.LISTEN_FD === undefined) {
    await app.listen(env.PORT, env.HOST);
    return;
  }
  // Nest passes its arguments on to net.Server#listen, which takes `{ fd }`; its types name a port only.
  const listenOn = app.listen.bind(app) as unknown as (handle: { fd: number }) => Promise<unknown>;
  await listenOn({ fd: env.LISTEN_FD });
}
