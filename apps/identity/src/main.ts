import 'reflect-metadata';
import { runHttpService } from '@edu/http';
import { IdentityEnv } from './config/identity.env';
import { IdentityErrorFilter } from './identity-error.filter';
import { IdentityModule } from './identity.module';
import { setupOpenApi } from './openapi';

void runHttpService({
  name: 'identity',
  envClass: IdentityEnv,
  module: (env) => IdentityModule.forRoot(env),
  bodyLimitBytes: (env) => env.BODY_LIMIT_BYTES,
  errorFilter: new IdentityErrorFilter(),
  beforeListen: (app) => setupOpenApi(app),
});
