// Jest transformer: @swc/jest over our TypeScript and over the ESM-only packages we depend on
// (NestJS 12, jose 6, ...), compiled to CommonJS so jest can run them without its ESM mode.
'use strict';
const { createTransformer } = require('@swc/jest');
const { SWC_OPTIONS } = require('./swc-options');

const swc = createTransformer(SWC_OPTIONS);

// `import.meta` does not exist in CommonJS; ESM packages use it to locate themselves.
const IMPORT_META_URL = /\bimport\.meta\.url\b/g;
const IMPORT_META_DIRNAME = /\bimport\.meta\.dirname\b/g;
const IMPORT_META_FILENAME = /\bimport\.meta\.filename\b/g;

// ESM packages that rebuild `require` for themselves; CommonJS already has the real one.
const CREATE_REQUIRE = /\bconst require\s*=\s*createRequire\(import\.meta\.url\);?/g;

function rewriteImportMeta(source) {
  if (!source.includes('import.meta')) return source;
  return source
    .replace(CREATE_REQUIRE, '')
    .replace(IMPORT_META_URL, "require('node:url').pathToFileURL(__filename).href")
    .replace(IMPORT_META_DIRNAME, '__dirname')
    .replace(IMPORT_META_FILENAME, '__filename');
}

module.exports = {
  canInstrument: false,
  getCacheKey(source, path, options) {
    return swc.getCacheKey(rewriteImportMeta(source), path, options) + ':meta2';
  },
  process(source, path, options) {
    return swc.process(rewriteImportMeta(source), path, options);
  },
  processAsync(source, path, options) {
    return swc.processAsync(rewriteImportMeta(source), path, options);
  },
};
