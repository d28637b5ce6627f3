/** The test renderer must behave like kustomize for the features it supports, and refuse the rest. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { JsonObject, K8sObject, parseImage, renderKustomization, strategicMerge } from './kustomize';
import { validateWithModels } from './kubernetes-models';

let dir: string;

function write(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: web
          image: example/web
          env:
            - { name: A, value: '1' }
            - name: SECRET
              valueFrom:
                secretKeyRef: { name: shared, key: SECRET }
        - name: sidecar
          image: example/sidecar:1.0
`;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kustomize-spec-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const container = (o: K8sObject, name: string): JsonObject =>
  ((((o.spec as JsonObject).template as JsonObject).spec as JsonObject).containers as JsonObject[]).find(
    (c) => c.name === name,
  )!;

describe('renderKustomization', () => {
  test('applies patches, namespace, labels and images the way kustomize does', () => {
    write({
      'base/kustomization.yaml': `${KUSTOMIZATION}resources: [deployment.yaml]\n`,
      'base/deployment.yaml': DEPLOYMENT,
      'overlay/kustomization.yaml': `${KUSTOMIZATION}namespace: prod
resources: [../base, ns.yaml]
patches:
  - path: patch.yaml
labels:
  - pairs: { stack: prod }
    includeTemplates: true
images:
  - { name: example/web, newName: registry.test/web, newTag: '2.0' }
`,
      'overlay/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: prod\n',
      'overlay/patch.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: web
          env:
            - name: SECRET
              valueFrom:
                secretKeyRef: { name: prod-only, key: SECRET }
            - { name: B, value: '2' }
`,
    });
    const [web, ns] = renderKustomization(path.join(dir, 'overlay'));
    expect(web.metadata.namespace).toBe('prod');
    expect(ns.metadata.namespace).toBeUndefined();
    expect(web.metadata.labels).toEqual({ stack: 'prod' });
    expect(ns.metadata.labels).toEqual({ stack: 'prod' });
    expect(((web.spec as JsonObject).template as JsonObject).metadata).toEqual({
      labels: { app: 'web', stack: 'prod' },
    });
    // Selectors are never touched.
    expect((web.spec as JsonObject).selector).toEqual({ matchLabels: { app: 'web' } });
    const main = container(web, 'web');
    expect(main.image).toBe('registry.test/web:2.0');
    expect(container(web, 'sidecar').image).toBe('example/sidecar:1.0');
    expect(main.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'SECRET', valueFrom: { secretKeyRef: { name: 'prod-only', key: 'SECRET' } } },
      { name: 'B', value: '2' },
    ]);
    expect(validateWithModels([web, ns]).map((r) => r.status)).toEqual(['valid', 'valid']);
  });

  test('a patch whose target is not among the resources is an error', () => {
    write({
      'kustomization.yaml': `${KUSTOMIZATION}resources: [deployment.yaml]\npatches:\n  - path: patch.yaml\n`,
      'deployment.yaml': DEPLOYMENT,
      'patch.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 2\n',
    });
    expect(() => renderKustomization(dir)).toThrow(/patches Deployment\/api/);
  });

  test('a missing resource, a missing patch file and a duplicate object are errors', () => {
    write({ 'a/kustomization.yaml': `${KUSTOMIZATION}resources: [nope.yaml]\n` });
    expect(() => renderKustomization(path.join(dir, 'a'))).toThrow(/resource nope\.yaml does not exist/);
    write({
      'b/kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml]\npatches:\n  - path: gone.yaml\n`,
      'b/d.yaml': DEPLOYMENT,
    });
    expect(() => renderKustomization(path.join(dir, 'b'))).toThrow(/patch gone\.yaml does not exist/);
    write({
      'c/kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml, e.yaml]\n`,
      'c/d.yaml': DEPLOYMENT,
      'c/e.yaml': DEPLOYMENT,
    });
    expect(() => renderKustomization(path.join(dir, 'c'))).toThrow(/defined twice/);
  });

  test('refuses kustomize features it does not implement instead of ignoring them', () => {
    write({ 'a/kustomization.yaml': `${KUSTOMIZATION}namePrefix: x-\nresources: []\n` });
    expect(() => renderKustomization(path.join(dir, 'a'))).toThrow(/not supported.*namePrefix/);
    write({ 'b/kustomization.yaml': `${KUSTOMIZATION}labels:\n  - pairs: { a: b }\n    includeSelectors: true\n` });
    expect(() => renderKustomization(path.join(dir, 'b'))).toThrow(/selectors/);
    write({ 'c/kustomization.yaml': `${KUSTOMIZATION}patches:\n  - target: { kind: Deployment }\n    patch: '[]'\n` });
    expect(() => renderKustomization(path.join(dir, 'c'))).toThrow(/patches: \[\{ path \}\]/);
  });

  test('applies components the way kustomize does: their resources join, their patches apply before the own patches of the parent', () => {
    write({
      'base/kustomization.yaml': `${KUSTOMIZATION}resources: [deployment.yaml]\n`,
      'base/deployment.yaml': DEPLOYMENT,
      'extra/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [cm.yaml]\npatches:\n  - path: patch.yaml\n',
      'extra/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata: { A: b }\n',
      'extra/patch.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n',
      'overlay/kustomization.yaml': `${KUSTOMIZATION}namespace: prod\nresources: [../base]\ncomponents: [../extra]\npatches:\n  - path: patch.yaml\n`,
      'overlay/patch.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: null\n  revisionHistoryLimit: 2\n',
      'plain/kustomization.yaml': `${KUSTOMIZATION}resources: [../base]\n`,
    });
    const [web, cm] = renderKustomization(path.join(dir, 'overlay'));
    expect([web.kind, cm.kind, cm.metadata.namespace]).toEqual(['Deployment', 'ConfigMap', 'prod']);
    // The component set replicas; the overlay's own patch, applied after it, removed it again.
    expect(web.spec).toMatchObject({ revisionHistoryLimit: 2 });
    expect((web.spec as JsonObject).replicas).toBeUndefined();
    // An optional component can be applied on top of a kustomization that does not list it.
    const plain = renderKustomization(path.join(dir, 'plain'), [path.join(dir, 'extra')]);
    expect(plain.map((o) => o.kind)).toEqual(['Deployment', 'ConfigMap']);
    expect((plain[0].spec as JsonObject).replicas).toBe(3);
  });

  test('a Component is never a resource or built alone, and a Kustomization is never a component', () => {
    write({
      'extra/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: []\n',
      'plain/kustomization.yaml': `${KUSTOMIZATION}resources: []\n`,
      'a/kustomization.yaml': `${KUSTOMIZATION}resources: [../extra]\n`,
      'b/kustomization.yaml': `${KUSTOMIZATION}components: [../plain]\n`,
      'c/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Component\n',
      'd/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nnamespace: x\n',
    });
    expect(() => renderKustomization(path.join(dir, 'a'))).toThrow(/is a Component; list it under components/);
    expect(() => renderKustomization(path.join(dir, 'b'))).toThrow(/listed under components but is a Kustomization/);
    expect(() => renderKustomization(path.join(dir, 'extra'))).toThrow(/never built alone/);
    expect(() => renderKustomization(path.join(dir, 'c'))).toThrow(/apiVersion of a Component/);
    expect(() => renderKustomization(path.join(dir, 'd'), [])).toThrow(/not supported.*namespace/);
  });

  test('rejects YAML with duplicate keys', () => {
    write({
      'kustomization.yaml': `${KUSTOMIZATION}resources: [d.yaml]\n`,
      'd.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n',
    });
    expect(() => renderKustomization(dir)).toThrow(/d\.yaml/);
  });
});

describe('strategicMerge', () => {
  test('merges maps, deletes on null, replaces plain lists', () => {
    expect(
      strategicMerge({ a: 1, b: { c: 2, d: 3 }, args: ['x', 'y'] }, { b: { d: null, e: 4 }, args: ['z'] }),
    ).toEqual({ a: 1, b: { c: 2, e: 4 }, args: ['z'] });
  });

  test('refuses directives and lists merged on keys other than name', () => {
    expect(() => strategicMerge({ a: 1 }, { $patch: 'replace' })).toThrow(/directive/);
    expect(() => strategicMerge({ ports: [{ containerPort: 1 }] }, { ports: [{ containerPort: 2 }] })).toThrow(/ports/);
  });
});

describe('parseImage', () => {
  test('splits registry, name, tag and digest', () => {
    expect(parseImage('registry.test:5000/a/b:1.2')).toEqual({
      name: 'registry.test:5000/a/b',
      tag: '1.2',
      digest: undefined,
    });
    expect(parseImage('registry.test:5000/a/b')).toEqual({ name: 'registry.test:5000/a/b', digest: undefined });
    expect(parseImage('a/b@sha256:abc')).toEqual({ name: 'a/b', digest: 'sha256:abc' });
  });
});

describe('validateWithModels', () => {
  test('reports schema violations and unknown kinds, so a pass means something', () => {
    const results = validateWithModels([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ok' }, data: { A: 'b' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad' }, data: { A: 1 } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bad' }, spec: { template: {} } },
      { apiVersion: 'example.test/v1', kind: 'Widget', metadata: { name: 'x' } },
      { apiVersion: 'v1', kind: 'ObjectMeta', metadata: { name: 'x' } },
    ]);
    expect(results.map((r) => r.status)).toEqual(['valid', 'invalid', 'invalid', 'unknown-kind', 'unknown-kind']);
    expect(results[1]).toMatchObject({ message: expect.stringContaining('must be string') });
    expect(results[2]).toMatchObject({ message: expect.stringContaining('selector') });
  });
});
