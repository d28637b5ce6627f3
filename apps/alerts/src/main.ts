import 'reflect-metadata';
import { runHttpService } from '@edu/http';
import { AlertsModule } from './alerts.module';
import { AlertsEnv } from './config/alerts.env';

void runHttpService({
  name: 'alerts',
  envClass: AlertsEnv,
  module: (env) => AlertsModule.forRoot(env),
  bodyLimitBytes: (env) => env.BODY_LIMIT_BYTES,
});
