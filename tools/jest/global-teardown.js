'use strict';
module.exports = async function globalTeardown() {
  for (const stop of globalThis.__EDU_TEST_SERVERS__ ?? []) await stop();
};
