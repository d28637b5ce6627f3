export * from './budget-store';
export * from './client-authentication';
export * from './headers';
export * from './policies';
export * from './rate-limit.guard';
export * from './rate-limit.module';
export * from './rate-limits';
export * from './subject';
