export * from './scopes';
export * from './tenancy';
export * from './errors';
export * from './webhook-target';
export * from './page-cursor';
