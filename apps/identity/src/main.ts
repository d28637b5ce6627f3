import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfigOrExit } from '@edu/config';
import { configureHttpApp } from '@edu/http';
import { IdentityEnv } from './config/identity.env';
import { IdentityModule } from './identity.module';
import { setupOpenApi } from './openapi';

async function bootstrap(): Promise<void> {
  const env = loadConfigOrExit(IdentityEnv, 'identity');
  const app = await NestFactory.create<NestExpressApplication>(IdentityModule.forRoot(env), { bodyParser: false, bufferLogs: true });
  configureHttpApp(app, { bodyLimitBytes: env.BODY_LIMIT_BYTES });
  setupOpenApi(app);
  await app.listen(env.PORT, env.HOST);
}

void bootstrap();
