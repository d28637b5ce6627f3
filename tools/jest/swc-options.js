// How this repository's TypeScript is compiled when it runs without a build (the jest transform,
// and test children run from sources): swc, legacy decorators with their metadata, CommonJS.
'use strict';

const SWC_OPTIONS = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true, dynamicImport: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
  },
  module: { type: 'commonjs', ignoreDynamic: false },
  sourceMaps: 'inline',
};

module.exports = { SWC_OPTIONS };
