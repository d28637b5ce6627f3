export * from './auth.decorators';
export * from './auth.errors';
export * from './auth.guard';
export * from './auth.module';
export * from './token-verifier';
export * from './caching-token-verifier';
export * from './region';
export * from './request-tenant';
