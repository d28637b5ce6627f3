/** The kustomizations meant for `kubectl apply -k`, and what the rendered stacks look like. */
import * as path from 'node:path';
import { isObject, Json, JsonObject, K8S_ROOT, K8sObject, renderKustomization } from './kustomize';
import { type AppName, APPS } from './platform';

/** The kustomizations meant for `kubectl apply -k`, and the apps each one runs. */
export const DEPLOYABLES: Record<string, { dir: string; apps: AppName[] }> = {
  base: { dir: 'base', apps: APPS },
  'overlays/global': { dir: 'overlays/global', apps: ['identity'] },
  'overlays/au-nsw': { dir: 'overlays/au-nsw', apps: ['oneroster', 'alerts', 'webhook-dispatcher', 'roster-sync'] },
  'overlays/sg': { dir: 'overlays/sg', apps: ['oneroster', 'alerts', 'webhook-dispatcher', 'roster-sync'] },
};

/** The optional components, applied on top of a stack by listing them under `components`. */
export const KEDA_COMPONENT = path.join(K8S_ROOT, 'components/keda-dispatcher');

export const render = (dir: string, components: string[] = []): K8sObject[] =>
  renderKustomization(path.join(K8S_ROOT, dir), components);

export const asArray = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : []);
export const asObject = (value: Json | undefined): JsonObject => (isObject(value) ? value : {});
export const byKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);

export function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is missing`);
  return found;
}

/** `matchLabels` and `matchExpressions` of a label selector; an empty selector selects everything. */
export function selects(selector: Json | undefined, labels: Record<string, string>): boolean {
  const s = asObject(selector);
  const matchLabels = asObject(s.matchLabels);
  if (!Object.entries(matchLabels).every(([k, v]) => labels[k] === v)) return false;
  return asArray(s.matchExpressions)
    .filter(isObject)
    .every((e) => {
      const key = String(e.key);
      const values = asArray(e.values).map(String);
      switch (e.operator) {
        case 'In':
          return key in labels && values.includes(labels[key]);
        case 'NotIn':
          return !(key in labels) || !values.includes(labels[key]);
        case 'Exists':
          return key in labels;
        case 'DoesNotExist':
          return !(key in labels);
        default:
          throw new Error(`unknown selector operator ${String(e.operator)}`);
      }
    });
}
