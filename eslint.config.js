// Lint: TypeScript rules plus Nx module boundaries (who may import whom, by project tags).
'use strict';
const js = require('@eslint/js');
const nx = require('@nx/eslint-plugin');
const globals = require('globals');
const tseslint = require('typescript-eslint');
const prettierOff = require('eslint-config-prettier/flat');

const SPECS = ['**/*.spec.ts', '**/*.int-spec.ts'];
// The CommonJS scripts that start, seed, test and benchmark the platform.
const TOOL_SCRIPTS = ['tools/**/*.js', 'bench/**/*.js'];
const SHORT_FUNCTIONS = ['error', { max: 80, skipBlankLines: true, skipComments: true }];

/** Layering by `type:` tag; specs may also use the shared test harness (`type:testing`). */
function depConstraints(forSpecs) {
  const also = forSpecs ? ['type:testing'] : [];
  return [
    {
      sourceTag: 'type:app',
      onlyDependOnLibsWithTags: [
        'type:feature',
        'type:infra',
        'type:data-access',
        'type:config',
        'type:util',
        'type:domain',
        'type:testing',
      ],
    },
    {
      // A feature library (sign-in): controllers and flows an app hosts, on the same libs an app uses.
      sourceTag: 'type:feature',
      onlyDependOnLibsWithTags: ['type:infra', 'type:data-access', 'type:config', 'type:util', 'type:domain', ...also],
    },
    {
      sourceTag: 'type:infra',
      onlyDependOnLibsWithTags: ['type:infra', 'type:config', 'type:util', 'type:domain', ...also],
      bannedExternalImports: ['typeorm', 'bullmq'],
    },
    {
      sourceTag: 'type:data-access',
      onlyDependOnLibsWithTags: ['type:data-access', 'type:config', 'type:util', 'type:domain', ...also],
    },
    {
      sourceTag: 'type:config',
      onlyDependOnLibsWithTags: ['type:domain', ...also],
      bannedExternalImports: ['typeorm', 'bullmq'],
    },
    {
      sourceTag: 'type:util',
      onlyDependOnLibsWithTags: ['type:util', 'type:domain', ...also],
      bannedExternalImports: ['@nestjs/*', 'typeorm', 'pg'],
    },
    {
      sourceTag: 'type:domain',
      onlyDependOnLibsWithTags: ['type:domain', ...also],
      bannedExternalImports: ['@nestjs/*', 'typeorm', 'bullmq', 'ioredis', 'jose', 'pg'],
    },
    { sourceTag: 'type:testing', notDependOnLibsWithTags: ['type:app'] },
    {
      sourceTag: 'type:e2e',
      onlyDependOnLibsWithTags: ['type:data-access', 'type:config', 'type:util', 'type:domain', 'type:testing'],
    },
    { sourceTag: 'lib:persistence', bannedExternalImports: ['bullmq', 'ioredis', 'express'] },
    { sourceTag: 'lib:queue', bannedExternalImports: ['typeorm'] },
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
    {
      sourceTag: 'scope:identity',
      onlyDependOnLibsWithTags: ['scope:identity', 'scope:shared'],
      bannedExternalImports: ['bullmq'],
    },
    {
      sourceTag: 'scope:oneroster',
      onlyDependOnLibsWithTags: ['scope:oneroster', 'scope:shared'],
      bannedExternalImports: ['bullmq'],
    },
    {
      sourceTag: 'scope:alerts',
      onlyDependOnLibsWithTags: ['scope:alerts', 'scope:shared'],
      bannedExternalImports: ['bullmq'],
    },
    { sourceTag: 'scope:e2e', onlyDependOnLibsWithTags: ['scope:shared'] },
    { sourceTag: 'scope:webhook-dispatcher', onlyDependOnLibsWithTags: ['scope:webhook-dispatcher', 'scope:shared'] },
  ];
}

// The harness builds on these libs while their own specs use the harness: test-only cycles.
const HARNESS_CYCLES = [
  ...['persistence', 'signing', 'http', 'auth', 'config', 'domain', 'queue'].map((lib) => ['testing', lib]),
  ['http', 'auth'],
];

const boundaries = (forSpecs) => [
  'error',
  {
    allow: [],
    banTransitiveDependencies: false,
    ignoredCircularDependencies: HARNESS_CYCLES,
    depConstraints: depConstraints(forSpecs),
  },
];

module.exports = [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      '.nx/**',
      'tmp/**',
      'coverage/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
      ...TOOL_SCRIPTS.map((glob) => `!${glob}`),
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: TOOL_SCRIPTS,
    ...js.configs.recommended,
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: {
      ...js.configs.recommended.rules,
      // These scripts are CommonJS: require() is how they import.
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'max-lines-per-function': SHORT_FUNCTIONS,
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@nx/enforce-module-boundaries': boundaries(false),
    },
  },
  { files: SPECS, rules: { '@nx/enforce-module-boundaries': boundaries(true) } },
  {
    // Functions stay short enough to read at once; tests and their fixtures may spell out long cases.
    files: ['**/*.ts'],
    ignores: [...SPECS, '**/test/**', 'e2e/**', 'libs/testing/**'],
    rules: { 'max-lines-per-function': SHORT_FUNCTIONS },
  },
  {
    // Test helpers stay out of production code.
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts'],
    ignores: [...SPECS, 'libs/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@edu/testing', message: 'Test helpers are for specs only.' },
            { name: '@edu/testing/sign-in', message: 'Test helpers are for specs only.' },
            { name: '@edu/testing/browser', message: 'Test helpers are for specs only.' },
            { name: '@edu/testing/server-process', message: 'Test helpers are for specs only.' },
          ],
          patterns: ['@nestjs/testing', 'supertest'],
        },
      ],
    },
  },
  // Layout is Prettier's (`prettier --check .` in `npm run lint`): no ESLint rule may argue with it.
  prettierOff,
];
