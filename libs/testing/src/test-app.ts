import type { DynamicModule, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { configureHttpApp, type HttpAppOptions } from '@edu/http';

/** The real app module over HTTP, configured exactly like main.ts does. */
export async function createTestApp(
  module: DynamicModule | Type<unknown>,
  options: Partial<HttpAppOptions> = {},
): Promise<NestExpressApplication> {
  const ref = await Test.createTestingModule({ imports: [module] }).compile();
  const app = ref.createNestApplication<NestExpressApplication>({ bodyParser: false, bufferLogs: true });
  configureHttpApp(app, { bodyLimitBytes: 1_048_576, ...options });
  await app.init();
  return app;
}
