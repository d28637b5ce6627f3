import 'reflect-metadata';
import { runHttpService } from '@edu/http';
import { IdentityEnv } from './config/identity.env';
import { IdentityModule } from './identity.module';
import { setupOpenApi } from './openapi';

void runHttpService({
  name: 'identity',
  envClass: IdentityEnv,
  module: (env) => IdentityModule.forRoot(env),
  bodyLimitBytes: (env) => env.BODY_LIMIT_BYTES,
  beforeListen: (app) => setupOpenApi(app),
});
