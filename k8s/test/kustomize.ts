/**
 * A small, strict stand-in for `kustomize build`, so the manifests can be checked without the
 * kustomize binary. It implements only the features k8s/ uses and throws on anything else, so
 * a manifest can never rely on a feature these checks silently ignore:
 *
 * - `resources`: YAML files (multi-document) and directories holding a kustomization.yaml
 * - `patches`: `{ path }` entries holding one strategic-merge patch, which must match exactly
 *   one object (same apiVersion, kind and name) among the resources
 * - `namespace`: set on every namespaced object
 * - `labels`: `pairs` added to metadata (and pod templates with `includeTemplates`); selectors
 *   are never touched
 * - `images`: `name` matched against container images, replaced by `newName` / `newTag`
 * - `components`: directories holding a `kind: Component` kustomization (with `resources` and
 *   `patches` only). As in kustomize, a component's resources join the parent's after the
 *   parent's own resources are gathered, and its patches apply to everything gathered so far,
 *   before the parent's own patches and transformers. A Component listed under `resources`, or a
 *   Kustomization under `components`, is an error, as is building a Component on its own.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

export const K8S_ROOT = path.resolve(__dirname, '..');
export const REPO_ROOT = path.resolve(K8S_ROOT, '..');

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface K8sObject extends JsonObject {
  apiVersion: string;
  kind: string;
  metadata: JsonObject & { name: string; namespace?: string; labels?: Record<string, string> };
}

export interface Kustomization {
  apiVersion: string;
  kind: 'Kustomization' | 'Component';
  resources?: string[];
  components?: string[];
  patches?: Array<{ path: string }>;
  namespace?: string;
  labels?: Array<{ pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }>;
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
}

export const KUSTOMIZE_API_VERSION = 'kustomize.config.k8s.io/v1beta1';
export const COMPONENT_API_VERSION = 'kustomize.config.k8s.io/v1alpha1';
const KUSTOMIZATION_FIELDS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'components',
  'patches',
  'namespace',
  'labels',
  'images',
]);
const COMPONENT_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'patches']);
const CLUSTER_SCOPED_KINDS = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'PriorityClass',
  'StorageClass',
  'PersistentVolume',
  'CustomResourceDefinition',
]);
const POD_TEMPLATE_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

/** Lists whose strategic-merge key is `name`: their items merge one by one. */
const MERGE_BY_NAME = new Set(['containers', 'initContainers', 'env', 'volumes', 'imagePullSecrets']);
/** Lists that strategic merge joins on a key other than `name`: not implemented here. */
const MERGE_BY_OTHER_KEY = new Set(['ports', 'volumeMounts', 'tolerations', 'hostAliases']);

export const rel = (file: string): string => path.relative(REPO_ROOT, file);

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const clone = <T>(value: T): T => structuredClone(value);

/** Every document of a YAML file, as plain data; a syntax error or duplicate key throws. */
export function loadYamlDocuments(file: string, options: { merge?: boolean } = {}): Json[] {
  const text = fs.readFileSync(file, 'utf8');
  const docs = parseAllDocuments(text, { merge: options.merge ?? false, uniqueKeys: true });
  const out: Json[] = [];
  for (const doc of docs) {
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length > 0) throw new Error(`${rel(file)}: ${problems.map((p) => p.message).join('; ')}`);
    const value = doc.toJS({ maxAliasCount: 100 }) as Json;
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/** Every .yaml / .yml file under `dir`, sorted. */
export function listYamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...listYamlFiles(full));
    } else if (/\.ya?ml$/.test(entry.name)) {
      out.push(full);
    }
  }
  return out.sort();
}

/** A Kustomization or a Component (the files named kustomization.yaml). */
export function isKustomization(doc: Json): doc is Json & Kustomization {
  return (
    isObject(doc) &&
    (doc.kind === 'Kustomization' || doc.kind === 'Component') &&
    typeof doc.apiVersion === 'string' &&
    doc.apiVersion.startsWith('kustomize.config.k8s.io/')
  );
}

export function isK8sObject(doc: Json): doc is K8sObject {
  return (
    isObject(doc) &&
    typeof doc.apiVersion === 'string' &&
    typeof doc.kind === 'string' &&
    isObject(doc.metadata) &&
    typeof doc.metadata.name === 'string'
  );
}

export const objectId = (o: K8sObject): string =>
  `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

/** Reads and structurally checks `dir/kustomization.yaml`. */
export function readKustomization(dir: string): Kustomization {
  const file = path.join(dir, 'kustomization.yaml');
  if (!fs.existsSync(file)) throw new Error(`${rel(dir)} has no kustomization.yaml`);
  const docs = loadYamlDocuments(file);
  if (docs.length !== 1 || !isKustomization(docs[0]))
    throw new Error(`${rel(file)} must hold exactly one Kustomization or Component`);
  const k = docs[0];
  const component = k.kind === 'Component';
  const apiVersion = component ? COMPONENT_API_VERSION : KUSTOMIZE_API_VERSION;
  if (k.apiVersion !== apiVersion) throw new Error(`${rel(file)}: apiVersion of a ${k.kind} must be ${apiVersion}`);
  const unsupported = Object.keys(k).filter((key) => !(component ? COMPONENT_FIELDS : KUSTOMIZATION_FIELDS).has(key));
  if (unsupported.length > 0)
    throw new Error(`${rel(file)}: fields not supported by the test renderer: ${unsupported.join(', ')}`);
  for (const patch of k.patches ?? []) {
    const extra = Object.keys(patch).filter((key) => key !== 'path');
    if (typeof patch.path !== 'string' || extra.length > 0)
      throw new Error(`${rel(file)}: only \`patches: [{ path }]\` is supported`);
  }
  for (const entry of k.labels ?? []) {
    const extra = Object.keys(entry).filter((key) => !['pairs', 'includeSelectors', 'includeTemplates'].includes(key));
    if (!isObject(entry.pairs) || extra.length > 0)
      throw new Error(`${rel(file)}: labels entries take pairs, includeSelectors, includeTemplates`);
    if (entry.includeSelectors)
      throw new Error(`${rel(file)}: labels must not change selectors (includeSelectors: true)`);
  }
  for (const image of k.images ?? []) {
    const extra = Object.keys(image).filter((key) => !['name', 'newName', 'newTag'].includes(key));
    if (typeof image.name !== 'string' || extra.length > 0)
      throw new Error(`${rel(file)}: images entries take name, newName, newTag`);
  }
  return k;
}

/** Files a kustomization points at (resources, components and patches), resolved; a missing one throws. */
export function kustomizationFiles(dir: string): { resources: string[]; components: string[]; patches: string[] } {
  const k = readKustomization(dir);
  const resolve = (entry: string, what: string): string => {
    const full = path.resolve(dir, entry);
    if (!fs.existsSync(full))
      throw new Error(`${rel(path.join(dir, 'kustomization.yaml'))}: ${what} ${entry} does not exist`);
    if (what !== 'patch' && fs.statSync(full).isDirectory() && !fs.existsSync(path.join(full, 'kustomization.yaml'))) {
      throw new Error(
        `${rel(path.join(dir, 'kustomization.yaml'))}: ${what} directory ${entry} has no kustomization.yaml`,
      );
    }
    if (what === 'component' && !fs.statSync(full).isDirectory())
      throw new Error(`${rel(path.join(dir, 'kustomization.yaml'))}: component ${entry} must be a directory`);
    return full;
  };
  return {
    resources: (k.resources ?? []).map((r) => resolve(r, 'resource')),
    components: (k.components ?? []).map((c) => resolve(c, 'component')),
    patches: (k.patches ?? []).map((p) => resolve(p.path, 'patch')),
  };
}

/**
 * Strategic merge of `patch` into `target`: maps merge key by key (`null` deletes), lists of
 * containers, env, volumes and imagePullSecrets merge item by item on `name`, other lists are
 * replaced. Directives (`$patch`, ...) and lists merged on other keys are refused.
 */
export function strategicMerge(target: Json, patch: Json, field?: string): Json {
  if (isObject(target) && isObject(patch)) {
    const out: JsonObject = clone(target);
    for (const [key, value] of Object.entries(patch)) {
      if (key.startsWith('$'))
        throw new Error(`strategic-merge directive ${key} is not supported by the test renderer`);
      if (value === null) delete out[key];
      else out[key] = key in out ? strategicMerge(out[key], value, key) : clone(value);
    }
    return out;
  }
  if (Array.isArray(target) && Array.isArray(patch)) {
    if (field && MERGE_BY_OTHER_KEY.has(field))
      throw new Error(`patching the list \`${field}\` is not supported by the test renderer`);
    if (field && MERGE_BY_NAME.has(field)) {
      const out = clone(target);
      for (const item of patch) {
        if (!isObject(item) || typeof item.name !== 'string')
          throw new Error(`every item patched into \`${field}\` needs a name`);
        const at = out.findIndex((existing) => isObject(existing) && existing.name === item.name);
        if (at >= 0) out[at] = strategicMerge(out[at], item);
        else out.push(clone(item));
      }
      return out;
    }
  }
  return clone(patch);
}

/** The pod spec inside a workload, or undefined for other kinds. */
export function podSpecOf(o: K8sObject): JsonObject | undefined {
  if (!POD_TEMPLATE_KINDS.has(o.kind)) return undefined;
  const template = isObject(o.spec) && isObject(o.spec.template) ? o.spec.template : undefined;
  return template && isObject(template.spec) ? template.spec : undefined;
}

export function podTemplateMetadataOf(o: K8sObject): JsonObject | undefined {
  if (!POD_TEMPLATE_KINDS.has(o.kind)) return undefined;
  const template = isObject(o.spec) && isObject(o.spec.template) ? o.spec.template : undefined;
  if (!template) return undefined;
  if (!isObject(template.metadata)) template.metadata = {};
  return template.metadata as JsonObject;
}

export function containersOf(o: K8sObject): JsonObject[] {
  const spec = podSpecOf(o);
  if (!spec) return [];
  const lists = [spec.initContainers, spec.containers].filter(Array.isArray) as Json[][];
  return lists.flat().filter(isObject);
}

/** Splits `registry/name:tag@digest` into name, tag and digest. */
export function parseImage(image: string): { name: string; tag?: string; digest?: string } {
  const [withoutDigest, digest] = image.split('@') as [string, string | undefined];
  const colon = withoutDigest.lastIndexOf(':');
  const slash = withoutDigest.lastIndexOf('/');
  if (colon > slash) return { name: withoutDigest.slice(0, colon), tag: withoutDigest.slice(colon + 1), digest };
  return { name: withoutDigest, digest };
}

const formatImage = (i: { name: string; tag?: string; digest?: string }): string =>
  `${i.name}${i.tag ? `:${i.tag}` : ''}${i.digest ? `@${i.digest}` : ''}`;

function loadResource(file: string): K8sObject[] {
  return loadYamlDocuments(file).map((doc, i) => {
    if (isKustomization(doc))
      throw new Error(`${rel(file)}: a Kustomization is listed as a resource file; list its directory`);
    if (!isK8sObject(doc))
      throw new Error(`${rel(file)} document ${i + 1} is not a Kubernetes object (apiVersion, kind, metadata.name)`);
    return doc;
  });
}

function checkUnique(objects: K8sObject[], where: string): void {
  const seen = new Set<string>();
  for (const o of objects) {
    const id = `${o.apiVersion}|${objectId(o)}`;
    if (seen.has(id)) throw new Error(`${where}: ${objectId(o)} is defined twice`);
    seen.add(id);
  }
}

function applyPatches(objects: K8sObject[], patchFiles: string[], where: string): K8sObject[] {
  let out = objects;
  for (const file of patchFiles) {
    const docs = loadYamlDocuments(file);
    if (docs.length !== 1 || !isK8sObject(docs[0]))
      throw new Error(`${rel(file)} must hold exactly one patch naming apiVersion, kind and metadata.name`);
    const patch = docs[0];
    const matches = out.filter(
      (o) =>
        o.apiVersion === patch.apiVersion &&
        o.kind === patch.kind &&
        o.metadata.name === patch.metadata.name &&
        (!patch.metadata.namespace || patch.metadata.namespace === o.metadata.namespace),
    );
    if (matches.length !== 1)
      throw new Error(
        `${rel(file)} patches ${patch.kind}/${patch.metadata.name}, which ${where} does not contain exactly once`,
      );
    out = out.map((o) => (o === matches[0] ? (strategicMerge(o, patch) as K8sObject) : o));
  }
  return out;
}

function renderResources(files: string[], where: string): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const resource of files) {
    if (fs.statSync(resource).isDirectory()) {
      if (readKustomization(resource).kind === 'Component')
        throw new Error(`${where}: ${rel(resource)} is a Component; list it under components, not resources`);
      objects.push(...renderKustomization(resource));
    } else {
      objects.push(...loadResource(resource));
    }
  }
  return objects;
}

/**
 * `kustomize build dir`, restricted to the features listed at the top of this file.
 * `extraComponents` are applied as if the kustomization listed them after its own components
 * (to check an optional component on top of a stack without writing a kustomization for it).
 */
export function renderKustomization(dir: string, extraComponents: string[] = []): K8sObject[] {
  const k = readKustomization(dir);
  const where = rel(path.join(dir, 'kustomization.yaml'));
  if (k.kind === 'Component')
    throw new Error(
      `${where} is a Component: it is applied by a kustomization that lists it under components, never built alone`,
    );
  const files = kustomizationFiles(dir);

  let objects = renderResources(files.resources, where);
  checkUnique(objects, where);

  for (const componentDir of [...files.components, ...extraComponents]) {
    const component = readKustomization(componentDir);
    const componentWhere = rel(path.join(componentDir, 'kustomization.yaml'));
    if (component.kind !== 'Component')
      throw new Error(`${where}: ${rel(componentDir)} is listed under components but is a ${component.kind}`);
    const componentFiles = kustomizationFiles(componentDir);
    objects = [...objects, ...renderResources(componentFiles.resources, componentWhere)];
    checkUnique(objects, `${where} with ${componentWhere}`);
    objects = applyPatches(objects, componentFiles.patches, `${where} with ${componentWhere}`);
  }

  objects = applyPatches(objects, files.patches, where);

  if (k.namespace) {
    for (const o of objects) if (!CLUSTER_SCOPED_KINDS.has(o.kind)) o.metadata.namespace = k.namespace;
  }

  for (const entry of k.labels ?? []) {
    for (const o of objects) {
      o.metadata.labels = { ...(o.metadata.labels ?? {}), ...entry.pairs };
      const template = entry.includeTemplates ? podTemplateMetadataOf(o) : undefined;
      if (template)
        template.labels = { ...((template.labels as Record<string, string> | undefined) ?? {}), ...entry.pairs };
    }
  }

  for (const image of k.images ?? []) {
    for (const container of objects.flatMap(containersOf)) {
      if (typeof container.image !== 'string') continue;
      const current = parseImage(container.image);
      if (current.name !== image.name) continue;
      container.image = formatImage({
        name: image.newName ?? current.name,
        tag: image.newTag ?? current.tag,
        digest: current.digest,
      });
    }
  }
  return objects;
}
