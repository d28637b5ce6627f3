// System tests: the compiled services as separate processes, talking over real HTTP.
module.exports = {
  ...require('../tools/jest/project-config')(__dirname, { integration: true }),
  testTimeout: 120_000,
  maxWorkers: 1,
};
