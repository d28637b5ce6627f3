export * from './classify-error';
export * from './configure-http-app';
export * from './health.module';
export * from './json-error.filter';
export * from './logging.module';
export * from './metrics.module';
export * from './validation';
export * from './run-http-service';
