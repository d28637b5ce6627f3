export * from './scopes';
export * from './tenancy';
export * from './errors';
