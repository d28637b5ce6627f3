export * from './load-config';
export * from './transforms';
export { BaseEnv, HttpServiceEnv, ResourceServerEnv, isProduction, URL_OPTS } from './env';
export * from './load-or-exit';
export * from './webhook-env';
export * from './traffic-env';
export * from './command-line';
