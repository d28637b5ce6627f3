// Validates Kubernetes objects with kubernetes-models, the typed models generated from the
// Kubernetes OpenAPI schemas (and, for KEDA's custom resources, @kubernetes-models/keda,
// generated from KEDA's CRD schemas). kubernetes-models ships as ES modules only, so this runs in a
// plain Node process (spawned by kubernetes-models.ts) instead of jest's CommonJS runtime.
//
// stdin:  a JSON array of objects
// stdout: a JSON array, one entry per object, in order:
//         { "status": "valid" } | { "status": "invalid", "message": "..." } | { "status": "unknown-kind" }
import { readFileSync } from 'node:fs';

const API_VERSION = /^(?:[a-z0-9]([a-z0-9.-]*[a-z0-9])?\/)?v[0-9]+(?:(?:alpha|beta)[0-9]+)?$/;
const MISSING_MODULE = new Set(['ERR_PACKAGE_PATH_NOT_EXPORTED', 'ERR_MODULE_NOT_FOUND']);

// Custom resources the manifests use, by API group: the package with their generated models.
const CUSTOM_RESOURCE_MODELS = { 'keda.sh': '@kubernetes-models/keda' };

async function modelFor(apiVersion, kind) {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !API_VERSION.test(apiVersion)) return undefined;
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const pkg = Object.hasOwn(CUSTOM_RESOURCE_MODELS, group) ? CUSTOM_RESOURCE_MODELS[group] : 'kubernetes-models';
  let models;
  try {
    models = await import(`${pkg}/${apiVersion}`);
  } catch (err) {
    if (MISSING_MODULE.has(err?.code)) return undefined;
    throw err;
  }
  const Model = Object.hasOwn(models, kind) ? models[kind] : undefined;
  // A model class carries its own apiVersion and kind; anything else exported is not a resource.
  if (typeof Model !== 'function' || Model.apiVersion !== apiVersion || Model.kind !== kind) return undefined;
  return Model;
}

async function check(object) {
  const Model = await modelFor(object?.apiVersion, object?.kind);
  if (!Model) return { status: 'unknown-kind' };
  try {
    new Model(object).validate();
    return { status: 'valid' };
  } catch (err) {
    return { status: 'invalid', message: err instanceof Error ? err.message : String(err) };
  }
}

const objects = JSON.parse(readFileSync(0, 'utf8'));
if (!Array.isArray(objects)) throw new Error('expected a JSON array of objects on stdin');
const results = [];
for (const object of objects) results.push(await check(object));
process.stdout.write(JSON.stringify(results));
