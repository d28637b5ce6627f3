// Imports point one way: no cycle between two files of any app or lib (this rule), nor between two
// folders (tools/lint/cycles.js, which runs this cruise and reads its graph). Nx's boundaries police
// projects; these police the files and folders inside them. A cycle is mended by moving what both
// sides need below both (a `db/`, `common/` or `ui/` folder). `npm run lint` runs both
// (`npm run lint:cycles` alone).
'use strict';

// Specs and test support may reach across folders to set a scene; the production graph may not.
const NOT_PRODUCTION = [
  '\\.spec\\.ts$',
  '\\.int-spec\\.ts$',
  '(^|/)test/',
  '(^|/)__fixtures__/',
  '^libs/testing/',
  '\\.d\\.ts$',
];

module.exports = {
  forbidden: [
    {
      name: 'no-file-cycle',
      comment: 'Two files import each other, directly or through others: move what both need into a third file.',
      severity: 'error',
      from: { path: '^(apps|libs)/' },
      to: { circular: true },
    },
  ],
  options: {
    exclude: { path: NOT_PRODUCTION },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports tie folders as much as value imports do.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
    cache: false,
  },
};
