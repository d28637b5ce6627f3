export * from './assertions';
export * from './test-app';
export * from './test-database';
export * from './test-env';
export * from './test-issuer';
export * from './world';
export * from './route-inventory';
