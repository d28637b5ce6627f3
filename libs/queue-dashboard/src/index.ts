export * from './queue-dashboard';
