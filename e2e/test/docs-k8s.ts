/**
 * Checks of the `sh k8s` blocks of docs/ (commands that need a Kubernetes cluster): every
 * kustomization they name renders with the manifest checks' renderer (k8s/test/kustomize.ts), and
 * every object they name exists in the rendered stacks, in the namespace they name: a Deployment
 * to scale or port-forward (and its container port), a Job to wait for, a Secret to create (some
 * object references it, and every key given), a label selector that selects something.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { DocBlock } from './docs-runner';

// The manifest checks' renderer and stack list (project deploy-manifests, k8s/test/), loaded at
// run time with their own types.
const load = createRequire(__filename);
const { isK8sObject, isObject, loadYamlDocuments } = load(
  '../../k8s/test/kustomize',
) as typeof import('../../k8s/test/kustomize');
const { DEPLOYABLES, KEDA_COMPONENT, render } = load('../../k8s/test/stacks') as typeof import('../../k8s/test/stacks');
type Json = import('../../k8s/test/kustomize').Json;
type K8sObject = import('../../k8s/test/kustomize').K8sObject;

const REPO_ROOT = path.resolve(__dirname, '..', '..');

const KINDS: Record<string, string> = {
  deployment: 'Deployment',
  deployments: 'Deployment',
  deploy: 'Deployment',
  job: 'Job',
  jobs: 'Job',
  service: 'Service',
  svc: 'Service',
  configmap: 'ConfigMap',
  cm: 'ConfigMap',
  secret: 'Secret',
  ingress: 'Ingress',
  hpa: 'HorizontalPodAutoscaler',
  horizontalpodautoscaler: 'HorizontalPodAutoscaler',
  scaledobject: 'ScaledObject',
  networkpolicy: 'NetworkPolicy',
  namespace: 'Namespace',
};
/** Verbs whose next two words may be `<kind> <name>`. */
const KIND_NAME_VERBS = new Set(['get', 'describe', 'delete', 'patch', 'scale', 'edit', 'annotate', 'label']);

let stacks: K8sObject[] | undefined;
/** Every deployable stack, alone and with the optional KEDA component where it has a dispatcher. */
function allObjects(): K8sObject[] {
  if (!stacks) {
    stacks = [];
    for (const { dir, apps } of Object.values(DEPLOYABLES)) {
      stacks.push(...render(dir));
      if (apps.includes('webhook-dispatcher')) stacks.push(...render(dir, [KEDA_COMPONENT]));
    }
  }
  return stacks;
}

/** Words of a command line, with quotes removed (no expansion: these commands are not run). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** Secret names and the keys read from each, by namespace. */
function secretReferences(objects: K8sObject[]): Map<string, Map<string, Set<string>>> {
  const refs = new Map<string, Map<string, Set<string>>>();
  const add = (ns: string, name: string, key?: string) => {
    const byName = refs.get(ns) ?? new Map<string, Set<string>>();
    refs.set(ns, byName);
    const keys = byName.get(name) ?? new Set<string>();
    byName.set(name, keys);
    if (key) keys.add(key);
  };
  const walk = (ns: string, node: Json, field?: string) => {
    if (Array.isArray(node)) {
      for (const n of node) walk(ns, n, field);
      return;
    }
    if (!isObject(node)) return;
    if (field === 'secretKeyRef' && typeof node.name === 'string')
      add(ns, node.name, typeof node.key === 'string' ? node.key : undefined);
    if (field === 'secretRef' && typeof node.name === 'string') add(ns, node.name);
    if (field === 'secretTargetRef' && typeof node.name === 'string')
      add(ns, node.name, typeof node.key === 'string' ? node.key : undefined);
    if (typeof node.secretName === 'string') add(ns, node.secretName);
    for (const [k, v] of Object.entries(node)) walk(ns, v, k);
  };
  for (const o of objects) walk(o.metadata.namespace ?? '', o as unknown as Json);
  return refs;
}

function containerPorts(o: K8sObject): number[] {
  const ports: number[] = [];
  const walk = (node: Json) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    if (typeof node.containerPort === 'number') ports.push(node.containerPort);
    if (o.kind === 'Service' && typeof node.port === 'number') ports.push(node.port);
    Object.values(node).forEach(walk);
  };
  walk(o as unknown as Json);
  return ports;
}

/** Problems with one `sh k8s` block (empty: all is well). */
export function checkK8sBlock(file: string, block: DocBlock): string[] {
  const problems: string[] = [];
  const where = `${file}:${block.line}`;
  const commands = block.code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);
  const everything = allObjects();
  for (const command of commands) {
    let piped: K8sObject[] | undefined;
    for (const segment of command.split('|').map((s) => s.trim())) {
      const w = words(segment);
      const fail = (why: string) => problems.push(`${where}: \`${segment}\`: ${why}`);
      if (w[0] === 'kustomize' && w[1] === 'build') {
        piped = renderDir(w[2], fail);
        continue;
      }
      if (w[0] !== 'kubectl') {
        fail('a `sh k8s` block holds kubectl (or kustomize build) commands only');
        continue;
      }
      const args = w.slice(1);
      let namespace: string | undefined;
      const positional: string[] = [];
      let kustomizeDir: string | undefined;
      let file: string | undefined;
      let selector: string | undefined;
      const literals: string[] = [];
      for (let i = 0; i < args.length; i++) {
        const a = args[i];
        const value = () => {
          const eq = a.indexOf('=');
          return a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : args[++i];
        };
        if (a === '-n' || a.startsWith('--namespace')) namespace = value();
        else if (a === '-k' || a.startsWith('--kustomize')) kustomizeDir = value();
        else if (a === '-f' || a.startsWith('--filename')) file = value();
        else if (a === '-l' || a.startsWith('--selector')) selector = value();
        else if (a.startsWith('--from-literal')) literals.push(value());
        else if (
          a === '-p' ||
          a === '--type' ||
          a === '--for' ||
          a === '--timeout' ||
          a === '--replicas' ||
          a === '--cert' ||
          a === '--key'
        )
          i++;
        else if (a.startsWith('-')) continue;
        else positional.push(a);
      }
      const inNamespace = everything.filter((o) => o.metadata.namespace === namespace);
      if (namespace !== undefined && inNamespace.length === 0) fail(`no rendered stack has namespace ${namespace}`);
      const [verb] = positional;
      if (verb === 'kustomize') piped = renderDir(positional[1], fail);
      if (kustomizeDir !== undefined) renderDir(kustomizeDir, fail);
      if (file !== undefined && file !== '-') {
        const full = path.join(REPO_ROOT, file);
        if (!existsSync(full)) fail(`${file} does not exist`);
        else if (!loadYamlDocuments(full).some(isK8sObject)) fail(`${file} holds no Kubernetes object`);
      }
      if (selector !== undefined) {
        const [key, val] = selector.split('=');
        const pool = file === '-' && piped ? piped : everything;
        if (!pool.some((o) => o.metadata.labels?.[key] === val)) fail(`no object carries the label ${selector}`);
      }
      // kind/name references, and `<verb> <kind> <name>`.
      const refs: { kind: string; name: string }[] = [];
      for (const p of positional) {
        const slash = /^([a-z]+)\/([a-z0-9.-]+)$/.exec(p);
        if (!slash) continue;
        const kind = KINDS[slash[1]];
        if (!kind) fail(`unknown kind ${slash[1]}`);
        else refs.push({ kind, name: slash[2] });
      }
      if (KIND_NAME_VERBS.has(verb) && KINDS[positional[1]] && positional[2] && !positional[2].includes('/'))
        refs.push({ kind: KINDS[positional[1]], name: positional[2] });
      for (const ref of refs) {
        const found = inNamespace.filter((o) => o.kind === ref.kind && o.metadata.name === ref.name);
        if (found.length === 0)
          fail(`no ${ref.kind} ${ref.name} in namespace ${namespace ?? '(none given)'} in any rendered stack`);
        if (verb === 'port-forward' && found.length > 0) {
          const port = Number(positional[2]?.split(':').pop());
          if (!found.some((o) => containerPorts(o).includes(port))) fail(`${ref.kind} ${ref.name} has no port ${port}`);
        }
      }
      if (verb === 'create' && positional[1] === 'secret') {
        const name = positional[3];
        const referenced = secretReferences(inNamespace)
          .get(namespace ?? '')
          ?.get(name);
        if (!name || !referenced) fail(`no object in namespace ${namespace} references a Secret ${name}`);
        else if (positional[2] === 'generic') {
          for (const literal of literals) {
            const key = literal.split('=')[0];
            if (!referenced.has(key))
              fail(
                `nothing reads the key ${key} of Secret ${name} (read: ${[...referenced].sort().join(', ') || 'the whole Secret'})`,
              );
          }
        }
      }
    }
  }
  return problems;
}

function renderDir(dir: string | undefined, fail: (why: string) => void): K8sObject[] | undefined {
  if (!dir) {
    fail('no kustomization directory');
    return undefined;
  }
  const full = path.join(REPO_ROOT, dir);
  if (!full.startsWith(path.join(REPO_ROOT, 'k8s') + path.sep)) {
    fail(`${dir} is not under k8s/`);
    return undefined;
  }
  try {
    const objects = render(path.relative(path.join(REPO_ROOT, 'k8s'), full));
    if (objects.length === 0) fail(`${dir} renders nothing`);
    return objects;
  } catch (err) {
    fail(`${dir} does not render: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}
