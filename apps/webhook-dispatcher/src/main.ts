import 'reflect-metadata';
import { runHttpService } from '@edu/http';
import { DispatcherEnv } from './config/dispatcher.env';
import { DispatcherModule } from './dispatcher.module';

void runHttpService({
  name: 'webhook-dispatcher',
  envClass: DispatcherEnv,
  module: (env) => DispatcherModule.forRoot(env),
});
