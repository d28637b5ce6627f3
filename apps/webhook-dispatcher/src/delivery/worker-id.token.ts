import { hostname } from 'node:os';
import type { FactoryProvider } from '@nestjs/common';
import { DispatcherEnv } from '../config/dispatcher.env';

/** Injection token of this process's worker id (BullMQ worker name, recorded with every attempt). */
export const WORKER_ID = Symbol('WORKER_ID');

export const workerIdProvider: FactoryProvider<string> = {
  provide: WORKER_ID,
  inject: [DispatcherEnv],
  useFactory: (env: DispatcherEnv) => env.WORKER_ID ?? `${hostname()}:${process.pid}`,
};
