import 'reflect-metadata';
import { runHttpService } from '@edu/http';
import { alertsHttpOptions } from './alerts-http';
import { AlertsModule } from './alerts.module';
import { AlertsEnv } from './config/alerts.env';
import { setupOpenApi } from './openapi';

void runHttpService({
  name: 'alerts',
  envClass: AlertsEnv,
  module: (env) => AlertsModule.forRoot(env),
  bodyLimitBytes: (env) => alertsHttpOptions(env).bodyLimitBytes,
  largeJsonRoutes: (env) => alertsHttpOptions(env).largeJsonRoutes,
  beforeListen: (app) => setupOpenApi(app),
});
