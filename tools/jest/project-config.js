// Builds one project's jest config from the shared preset.
'use strict';
const path = require('node:path');
const preset = require('../../jest.preset');

/**
 * @param {string} dir the project's directory (__dirname of its jest.config.js)
 * @param {{ integration?: boolean }} opts integration: start/reuse PostgreSQL + Redis for the run
 */
module.exports = function projectConfig(dir, opts = {}) {
  const name = path.relative(path.join(__dirname, '..', '..'), dir);
  return {
    ...preset,
    displayName: name,
    rootDir: dir,
    ...(opts.integration
      ? {
          globalSetup: path.join(__dirname, 'global-setup.js'),
          globalTeardown: path.join(__dirname, 'global-teardown.js'),
          // Integration specs share one PostgreSQL server; each file gets its own database.
          maxWorkers: 2,
          testTimeout: 30_000,
        }
      : {}),
  };
};
