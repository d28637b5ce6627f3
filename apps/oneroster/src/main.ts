import 'reflect-metadata';
import { runHttpService } from '@edu/http';
import { ImsxErrorFilter } from './common/imsx-error.filter';
import { OnerosterEnv } from './oneroster.env';
import { OnerosterModule } from './oneroster.module';
import { setupOpenApi } from './openapi';
import { setupOpenApiV1p2 } from './openapi-v1p2';

void runHttpService({
  name: 'oneroster',
  envClass: OnerosterEnv,
  module: (env) => OnerosterModule.forRoot(env),
  bodyLimitBytes: (env) => env.BODY_LIMIT_BYTES,
  errorFilter: new ImsxErrorFilter(),
  beforeListen: (app) => {
    setupOpenApi(app);
    setupOpenApiV1p2(app);
  },
});
