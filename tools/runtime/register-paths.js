// Resolves the `@edu/*` aliases of tsconfig.base.json against the compiled tree in dist/.
'use strict';
const path = require('node:path');
const tsconfigPaths = require('tsconfig-paths');
const { compilerOptions } = require('../../tsconfig.base.json');

const distRoot = path.resolve(__dirname, '..', '..', 'dist');
const paths = {};
for (const [alias, targets] of Object.entries(compilerOptions.paths)) {
  paths[alias] = targets.map((t) => t.replace(/\.ts$/, ''));
}
tsconfigPaths.register({ baseUrl: distRoot, paths, addMatchAll: false });
