// Shared jest settings for every project (apps and libs).
'use strict';
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

// ESM-only packages that must be compiled to CommonJS for jest.
const ESM_PACKAGES = [
  '@nestjs',
  'jose',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  '@standard-schema',
  'load-esm',
  'csv-parse',
  'yauzl',
  'yazl',
  'oidc-provider',
  'openid-client',
  'oauth4webapi',
];

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = path.join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj|cj)s$': path.join(__dirname, 'tools/jest/swc-transform.js') },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)+(spec|int-spec).ts'],
  reporters: ['default', path.join(__dirname, 'tools/jest/count-reporter.js')],
};
