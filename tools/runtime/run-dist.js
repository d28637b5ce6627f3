#!/usr/bin/env node
// Runs a compiled entry point: `node tools/runtime/run-dist.js apps/identity/src/main [args...]`.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
require('./register-paths');

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: run-dist.js <path without extension, relative to the project root> [args]');
  process.exit(2);
}
const file = path.resolve(__dirname, '..', '..', 'dist', `${entry}.js`);
if (!fs.existsSync(file)) {
  console.error(`${file} does not exist: run \`npm run build\` first`);
  process.exit(2);
}
process.argv = [process.argv[0], file, ...rest];
require(file);
