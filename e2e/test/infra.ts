import { createRequire } from 'node:module';

// The PostgreSQL and Redis launchers of `npm start` and jest's global setup: plain JS under tools/
// (outside the TypeScript project graph), loaded at run time with the types of their .d.ts files.
const load = createRequire(__filename);

export const { startPostgres } = load('../../tools/infra/postgres') as typeof import('../../tools/infra/postgres');
export const { startRedis } = load('../../tools/infra/redis') as typeof import('../../tools/infra/redis');
export type PostgresServer = Awaited<ReturnType<typeof startPostgres>>;
export type RedisServer = Awaited<ReturnType<typeof startRedis>>;
