/**
 * The optional KEDA component (k8s/components/keda-dispatcher): applied on top of every stack
 * that runs the dispatcher, it must render, validate against KEDA's CRD schemas, and scale the
 * dispatcher on the wait list of the queue the code really uses.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BaseEnv, WithWebhookDelivery } from '@edu/config';
import { QUEUES } from '@edu/queue';
import { isObject, K8S_ROOT, K8sObject, objectId } from './kustomize';
import { validateWithModels } from './kubernetes-models';
import { asArray, asObject, byKind, DEPLOYABLES, find, KEDA_COMPONENT, render } from './stacks';

const withDispatcher = Object.entries(DEPLOYABLES).filter(([, d]) => d.apps.includes('webhook-dispatcher'));
const DEFAULT_QUEUE_PREFIX = new (WithWebhookDelivery(BaseEnv))().QUEUE_PREFIX;

test('is optional: no stack includes it by default, and it cannot be built on its own', () => {
  for (const { dir } of Object.values(DEPLOYABLES)) {
    const kinds = render(dir).map((o) => o.kind);
    expect({ dir, keda: kinds.filter((k) => k === 'ScaledObject' || k === 'TriggerAuthentication') }).toEqual({
      dir,
      keda: [],
    });
  }
  expect(() => render('components/keda-dispatcher')).toThrow(/Component/);
  const readme = fs.readFileSync(path.join(K8S_ROOT, 'README.md'), 'utf8');
  expect(readme).toContain('components/keda-dispatcher');
  expect(readme).toMatch(/optional/i);
});

describe.each(withDispatcher)('%s with the KEDA component', (_name, { dir }) => {
  let objects: K8sObject[] = [];
  beforeAll(() => {
    objects = render(dir, [KEDA_COMPONENT]);
  });

  test('every object validates (KEDA objects against the keda.sh CRD schemas) and lands in the stack namespace', () => {
    const results = validateWithModels(objects);
    expect(
      results.flatMap((r, i) =>
        r.status === 'valid' ? [] : [`${objectId(objects[i])}: ${r.status === 'invalid' ? r.message : 'unknown kind'}`],
      ),
    ).toEqual([]);
    const plain = render(dir);
    const namespace = plain.find((o) => o.kind === 'Deployment')?.metadata.namespace;
    for (const o of [...byKind(objects, 'ScaledObject'), ...byKind(objects, 'TriggerAuthentication')])
      expect(o.metadata.namespace).toBe(namespace);
    // The component adds its two objects and changes nothing else but the dispatcher's replica count.
    expect(objects.length).toBe(plain.length + 2);
  });

  test('scales the dispatcher Deployment, which leaves its replica count to KEDA, between 2 and more workers', () => {
    const scaled = find(objects, 'ScaledObject', 'webhook-dispatcher');
    const spec = asObject(scaled.spec);
    const target = asObject(spec.scaleTargetRef);
    const deployment = find(objects, 'Deployment', String(target.name));
    expect(deployment.metadata.name).toBe('webhook-dispatcher');
    expect(target.kind ?? 'Deployment').toBe('Deployment');
    expect(asObject(deployment.spec).replicas).toBeUndefined();
    expect(spec.minReplicaCount).toBeGreaterThanOrEqual(2);
    expect(spec.maxReplicaCount as number).toBeGreaterThan(spec.minReplicaCount as number);
  });

  test("watches the delivery queue's wait list under the prefix the dispatcher runs with", () => {
    const deployment = find(objects, 'Deployment', 'webhook-dispatcher');
    const container = asArray(asObject(asObject(asObject(deployment.spec).template).spec).containers).filter(
      isObject,
    )[0];
    const fromConfigMaps = asArray(container.envFrom)
      .filter(isObject)
      .map((s) => asObject(find(objects, 'ConfigMap', String(asObject(s.configMapRef).name)).data));
    const fromEnv = asArray(container.env)
      .filter(isObject)
      .find((v) => v.name === 'QUEUE_PREFIX')?.value;
    const prefix = String(
      fromEnv ??
        fromConfigMaps.reverse().find((d) => d.QUEUE_PREFIX !== undefined)?.QUEUE_PREFIX ??
        DEFAULT_QUEUE_PREFIX,
    );
    const triggers = asArray(asObject(find(objects, 'ScaledObject', 'webhook-dispatcher').spec).triggers).filter(
      isObject,
    );
    expect(triggers.map((t) => t.type)).toEqual(['redis']);
    const metadata = asObject(triggers[0].metadata);
    expect(metadata.listName).toBe(`${prefix}:${QUEUES.webhookDeliveries}:wait`);
    expect(Number(metadata.listLength)).toBeGreaterThan(0);
    // Where Redis is comes from a Secret through a TriggerAuthentication of this stack, never a literal.
    expect([metadata.address, metadata.host, metadata.password]).toEqual([undefined, undefined, undefined]);
    const auth = find(objects, 'TriggerAuthentication', String(asObject(triggers[0].authenticationRef).name));
    const refs = asArray(asObject(auth.spec).secretTargetRef).filter(isObject);
    expect(refs.map((r) => r.parameter).sort()).toEqual(['address', 'password']);
  });

  test('k8s/README.md documents the Secret and keys the TriggerAuthentication reads', () => {
    const readme = fs.readFileSync(path.join(K8S_ROOT, 'README.md'), 'utf8').split('\n');
    for (const auth of byKind(objects, 'TriggerAuthentication')) {
      for (const ref of asArray(asObject(auth.spec).secretTargetRef).filter(isObject)) {
        expect({
          ref,
          documented: readme.some(
            (line) => line.includes(`\`${String(ref.name)}\``) && line.includes(`\`${String(ref.key)}\``),
          ),
        }).toEqual({ ref, documented: true });
      }
    }
  });
});
