/** Schema validation of Kubernetes objects through kubernetes-models (see validate-models.mjs). */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { REPO_ROOT } from './kustomize';

export type ModelResult = { status: 'valid' } | { status: 'invalid'; message: string } | { status: 'unknown-kind' };

const SCRIPT = path.join(__dirname, 'validate-models.mjs');

/** Validates every object against the model class of its apiVersion and kind, in one process. */
export function validateWithModels(objects: readonly unknown[]): ModelResult[] {
  const out = execFileSync(process.execPath, [SCRIPT], {
    cwd: REPO_ROOT,
    input: JSON.stringify(objects),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  const results = JSON.parse(out) as ModelResult[];
  if (!Array.isArray(results) || results.length !== objects.length)
    throw new Error('validate-models.mjs answered a different number of results');
  return results;
}
