// Lets a child process run this repository's TypeScript sources directly (`node -r <this> x.ts`):
// .ts files are compiled on load with swc, as the jest transform does, and the `@edu/*` aliases
// resolve to the libraries' sources. Tests use it to run the identity service beside the app
// under test without a build of dist/.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');
const tsconfigPaths = require('tsconfig-paths');

const root = path.resolve(__dirname, '..', '..', '..', '..');
const { compilerOptions } = require(path.join(root, 'tsconfig.base.json'));
const { SWC_OPTIONS } = require(path.join(root, 'tools/jest/swc-options'));
tsconfigPaths.register({ baseUrl: root, paths: compilerOptions.paths, addMatchAll: false });

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...SWC_OPTIONS, filename });
  module._compile(code, filename);
};
