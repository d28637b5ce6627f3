// Integration tests: use DATABASE_URL / REDIS_URL when given (the root `npm test` starts one
// PostgreSQL and one Redis for every project); otherwise start throwaway servers for this run.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startPostgres } = require('../infra/postgres');
const { startRedis } = require('../infra/redis');

module.exports = async function globalSetup() {
  process.env.TZ = 'UTC';
  const started = [];
  if (!process.env.DATABASE_URL) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edu-test-pg-'));
    const pg = await startPostgres({ dataDir, durable: false });
    process.env.DATABASE_URL = pg.url;
    started.push(async () => {
      await pg.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
  }
  if (!process.env.REDIS_URL) {
    const redis = await startRedis();
    process.env.REDIS_URL = redis.url;
    started.push(() => redis.stop());
  }
  globalThis.__EDU_TEST_SERVERS__ = started;
};
