import { createRequire } from 'node:module';

// The demo upstream's in-process oidc-provider store serves the test upstream too: plain JS under
// tools/ (the demo runs without a build), loaded at run time with the types of its .d.ts file.
const load = createRequire(__filename);

/** An in-process store for a test or demo upstream provider (one process, throwaway). */
export const { memoryAdapterFactory } = load(
  '../../../../tools/demo/sign-in/memory-adapter',
) as typeof import('../../../../tools/demo/sign-in/memory-adapter');
