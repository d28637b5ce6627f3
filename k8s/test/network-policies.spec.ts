/**
 * The NetworkPolicies of every rendered stack, evaluated the way the Kubernetes NetworkPolicy
 * API defines them (policies add up; a pod selected by none for a direction is open in that
 * direction), for the connections the platform needs and the ones it must never make.
 */
import { BaseEnv, WithWebhookDelivery } from '@edu/config';
import { isObject, Json, JsonObject, K8sObject, objectId, podSpecOf, podTemplateMetadataOf } from './kustomize';
import { API_APPS, APP_PORTS, AppName } from './platform';
import { asArray, asObject, byKind, DEPLOYABLES, render, selects } from './stacks';

// ---------------------------------------------------------------------------------------------
// a NetworkPolicy evaluator

interface Endpoint {
  /** Set for pods; absent for addresses outside the cluster. */
  namespace?: string;
  labels?: Record<string, string>;
  ip: string;
}

const ipToInt = (ip: string): number => ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);

function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  const start = Math.floor(ipToInt(base) / size) * size;
  return ipToInt(ip) >= start && ipToInt(ip) < start + size;
}

const namespaceLabels = (name: string): Record<string, string> => ({ 'kubernetes.io/metadata.name': name });

function peerMatches(peer: JsonObject, policyNamespace: string, other: Endpoint): boolean {
  if (isObject(peer.ipBlock)) {
    const block = peer.ipBlock;
    return inCidr(other.ip, String(block.cidr)) && !asArray(block.except).some((e) => inCidr(other.ip, String(e)));
  }
  if (other.namespace === undefined) return false;
  const namespaceOk = isObject(peer.namespaceSelector)
    ? selects(peer.namespaceSelector, namespaceLabels(other.namespace))
    : other.namespace === policyNamespace;
  const podOk = isObject(peer.podSelector) ? selects(peer.podSelector, other.labels ?? {}) : true;
  return namespaceOk && podOk;
}

function portMatches(ports: Json | undefined, port: number, protocol: string): boolean {
  const list = asArray(ports).filter(isObject);
  if (list.length === 0) return true;
  return list.some(
    (p) =>
      (p.protocol ?? 'TCP') === protocol &&
      (p.port === undefined ||
        p.port === port ||
        (typeof p.endPort === 'number' && port >= (p.port as number) && port <= p.endPort)),
  );
}

/** Whether the policies let `from` open a connection to `to` on `port`. */
function allowed(policies: K8sObject[], from: Endpoint, to: Endpoint, port: number, protocol = 'TCP'): boolean {
  const side = (pod: Endpoint, type: 'Ingress' | 'Egress', other: Endpoint): boolean => {
    if (pod.namespace === undefined) return true;
    const applying = policies.filter(
      (p) =>
        (p.metadata.namespace ?? 'default') === pod.namespace &&
        selects(asObject(p.spec).podSelector, pod.labels ?? {}) &&
        asArray(asObject(p.spec).policyTypes).includes(type),
    );
    if (applying.length === 0) return true;
    return applying.some((p) =>
      asArray(asObject(p.spec)[type === 'Ingress' ? 'ingress' : 'egress'])
        .filter(isObject)
        .some((rule) => {
          const peers = asArray(rule[type === 'Ingress' ? 'from' : 'to']).filter(isObject);
          return (
            (peers.length === 0 || peers.some((peer) => peerMatches(peer, pod.namespace!, other))) &&
            portMatches(rule.ports, port, protocol)
          );
        }),
    );
  };
  return side(from, 'Egress', to) && side(to, 'Ingress', from);
}

// ---------------------------------------------------------------------------------------------
// who is out there

const INGRESS_CONTROLLER: Endpoint = {
  namespace: 'ingress-nginx',
  labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
  ip: '10.244.9.10',
};
const PROMETHEUS: Endpoint = {
  namespace: 'monitoring',
  labels: { 'app.kubernetes.io/name': 'prometheus' },
  ip: '10.244.9.20',
};
const KUBE_DNS: Endpoint = { namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' }, ip: '10.244.0.3' };
const OTHER_TENANT_POD: Endpoint = {
  namespace: 'someone-else',
  labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
  ip: '10.244.9.30',
};
const KUBE_API: Endpoint = { ip: '10.96.0.1' };
/** PostgreSQL and Redis as private addresses (managed services in the VPC, or pods). */
const POSTGRES: Endpoint = { ip: '10.20.0.5' };
const REDIS: Endpoint = { ip: '10.20.0.6' };
const PUBLIC_HOST: Endpoint = { ip: '93.184.215.14' };
const CLOUD_METADATA: Endpoint = { ip: '169.254.169.254' };
const PRIVATE_HOSTS: Endpoint[] = [
  { ip: '10.1.2.3' },
  { ip: '172.20.0.9' },
  { ip: '192.168.1.1' },
  { ip: '100.64.0.7' },
  CLOUD_METADATA,
  KUBE_API,
];

const WEBHOOK_PORTS = new (WithWebhookDelivery(BaseEnv))().WEBHOOK_ALLOWED_PORTS.split(',').map(Number);

describe.each(Object.entries(DEPLOYABLES))('network policies of %s', (_name, { dir, apps }) => {
  let objects: K8sObject[] = [];
  let policies: K8sObject[] = [];
  const pods = new Map<string, Endpoint>();
  const pod = (name: string): Endpoint => {
    const p = pods.get(name);
    if (!p) throw new Error(`no pod ${name} in ${dir}`);
    return p;
  };

  beforeAll(() => {
    objects = render(dir);
    policies = byKind(objects, 'NetworkPolicy');
    let n = 10;
    for (const w of [...byKind(objects, 'Deployment'), ...byKind(objects, 'Job')]) {
      pods.set(w.metadata.name, {
        namespace: w.metadata.namespace ?? 'default',
        labels: asObject(podTemplateMetadataOf(w)?.labels) as Record<string, string>,
        ip: `10.244.1.${n++}`,
      });
    }
  });

  test('every policy validates its selectors: only known operators, numeric ports, no allow-all rule', () => {
    expect(policies.length).toBeGreaterThanOrEqual(3);
    for (const p of policies) {
      const spec = asObject(p.spec);
      for (const type of ['ingress', 'egress']) {
        for (const rule of asArray(spec[type]).filter(isObject)) {
          // A rule without peers or without ports opens everything in that respect: never wanted here.
          expect({ id: objectId(p), type, peers: asArray(rule.from ?? rule.to).length > 0 }).toEqual({
            id: objectId(p),
            type,
            peers: true,
          });
          expect({ id: objectId(p), type, ports: asArray(rule.ports).length > 0 }).toEqual({
            id: objectId(p),
            type,
            ports: true,
          });
          for (const port of asArray(rule.ports).filter(isObject)) expect(typeof port.port).toBe('number');
        }
      }
    }
  });

  test('denies everything by default, in both directions, for every pod of the stack', () => {
    const defaults = policies.filter(
      (p) =>
        Object.keys(asObject(asObject(p.spec).podSelector)).length === 0 &&
        asArray(asObject(p.spec).policyTypes).length === 2,
    );
    expect(defaults.map((p) => p.metadata.name)).toEqual(['default-deny']);
    const spec = asObject(defaults[0].spec);
    expect([spec.ingress, spec.egress]).toEqual([undefined, undefined]);
  });

  test('every Deployment and the migration Job has a policy of its own (selecting it by name), and a PodDisruptionBudget covers every Deployment', () => {
    for (const w of [...byKind(objects, 'Deployment'), ...byKind(objects, 'Job')]) {
      const labels = asObject(podTemplateMetadataOf(w)?.labels) as Record<string, string>;
      const own = policies.filter((p) => {
        const selector = asObject(asObject(p.spec).podSelector);
        return (
          Object.keys(selector).length > 0 &&
          selects(selector, labels) &&
          asArray(asObject(p.spec).policyTypes).length === 2
        );
      });
      expect({ id: objectId(w), own: own.map((p) => p.metadata.name) }).toEqual({
        id: objectId(w),
        own: [w.metadata.name],
      });
    }
    for (const d of byKind(objects, 'Deployment')) {
      const labels = asObject(podTemplateMetadataOf(d)?.labels) as Record<string, string>;
      const pdbs = byKind(objects, 'PodDisruptionBudget').filter((b) => selects(asObject(b.spec).selector, labels));
      expect({ id: objectId(d), pdbs: pdbs.length }).toEqual({ id: objectId(d), pdbs: 1 });
      // A PDB that allows no eviction at all would block node drains.
      expect(asObject(pdbs[0].spec).minAvailable).toBe(1);
      expect(podSpecOf(d)).toBeDefined();
    }
  });

  test('every pod resolves names through the cluster DNS, and nothing else in kube-system', () => {
    for (const name of pods.keys()) {
      expect({
        name,
        udp: allowed(policies, pod(name), KUBE_DNS, 53, 'UDP'),
        tcp: allowed(policies, pod(name), KUBE_DNS, 53),
      }).toEqual({ name, udp: true, tcp: true });
      expect({ name, api: allowed(policies, pod(name), KUBE_API, 443) }).toEqual({ name, api: false });
    }
  });

  test('the APIs are reachable from the ingress controller and Prometheus on their port only, from nothing else', () => {
    for (const app of apps.filter((a) => API_APPS.includes(a))) {
      const target = pod(app);
      const port = APP_PORTS[app];
      expect({
        app,
        ingress: allowed(policies, INGRESS_CONTROLLER, target, port),
        prometheus: allowed(policies, PROMETHEUS, target, port),
      }).toEqual({ app, ingress: true, prometheus: true });
      expect({
        app,
        otherPort: allowed(policies, INGRESS_CONTROLLER, target, 22),
        otherNamespace: allowed(policies, OTHER_TENANT_POD, target, port),
        internet: allowed(policies, PUBLIC_HOST, target, port),
      }).toEqual({
        app,
        otherPort: false,
        otherNamespace: false,
        internet: false,
      });
      for (const other of pods.keys()) {
        if (other === app) continue;
        // In one stack, oneroster and alerts fetch the JWKS from identity in-cluster; that is the only pod-to-pod path.
        const jwks = dir === 'base' && app === 'identity' && (other === 'oneroster' || other === 'alerts');
        expect({ from: other, to: app, allowed: allowed(policies, pod(other), target, port) }).toEqual({
          from: other,
          to: app,
          allowed: jwks,
        });
      }
    }
  });

  test('the dispatcher takes connections from Prometheus only', () => {
    if (!apps.includes('webhook-dispatcher')) return expect(pods.has('webhook-dispatcher')).toBe(false);
    const dispatcher = pod('webhook-dispatcher');
    expect(allowed(policies, PROMETHEUS, dispatcher, APP_PORTS['webhook-dispatcher'])).toBe(true);
    expect(allowed(policies, INGRESS_CONTROLLER, dispatcher, APP_PORTS['webhook-dispatcher'])).toBe(false);
    for (const other of pods.keys())
      if (other !== 'webhook-dispatcher')
        expect(allowed(policies, pod(other), dispatcher, APP_PORTS['webhook-dispatcher'])).toBe(false);
  });

  test('the dispatcher reaches public webhook endpoints on the webhook ports, and no private address but PostgreSQL and Redis', () => {
    if (!apps.includes('webhook-dispatcher')) return expect(pods.has('webhook-dispatcher')).toBe(false);
    const dispatcher = pod('webhook-dispatcher');
    expect(WEBHOOK_PORTS).toEqual([443, 80, 8443, 8080]);
    for (const port of WEBHOOK_PORTS)
      expect({ port, public: allowed(policies, dispatcher, PUBLIC_HOST, port) }).toEqual({ port, public: true });
    for (const port of [22, 25, 3000, 5432, 6379])
      expect({ port, public: allowed(policies, dispatcher, PUBLIC_HOST, port) }).toEqual({ port, public: false });
    for (const host of PRIVATE_HOSTS) {
      for (const port of [...WEBHOOK_PORTS, 3000])
        expect({ host: host.ip, port, allowed: allowed(policies, dispatcher, host, port) }).toEqual({
          host: host.ip,
          port,
          allowed: false,
        });
    }
    expect([allowed(policies, dispatcher, POSTGRES, 5432), allowed(policies, dispatcher, REDIS, 6379)]).toEqual([
      true,
      true,
    ]);
    // Not even identity: the dispatcher signs with a key read from PostgreSQL and never fetches the JWKS.
    for (const other of pods.keys()) {
      if (other === 'webhook-dispatcher') continue;
      for (const port of [...Object.values(APP_PORTS), ...WEBHOOK_PORTS])
        expect({ to: other, port, allowed: allowed(policies, dispatcher, pod(other), port) }).toEqual({
          to: other,
          port,
          allowed: false,
        });
    }
  });

  test('each app reaches its data stores, and the resource servers the JWKS, but nothing else', () => {
    const needs: Record<AppName | 'migrate', { redis: boolean; publicHttps: boolean }> = {
      identity: { redis: true, publicHttps: false },
      oneroster: { redis: true, publicHttps: dir !== 'base' },
      alerts: { redis: true, publicHttps: dir !== 'base' },
      'webhook-dispatcher': { redis: true, publicHttps: true },
      'roster-sync': { redis: true, publicHttps: true },
      migrate: { redis: false, publicHttps: false },
    };
    for (const [name, source] of pods) {
      const want = needs[name as AppName | 'migrate'];
      expect({
        name,
        postgres: allowed(policies, source, POSTGRES, 5432),
        redis: allowed(policies, source, REDIS, 6379),
        https: allowed(policies, source, PUBLIC_HOST, 443),
      }).toEqual({
        name,
        postgres: true,
        redis: want.redis,
        https: want.publicHttps,
      });
      expect({
        name,
        metadata: allowed(policies, source, CLOUD_METADATA, 80),
        privateHttps: allowed(policies, source, { ip: '10.1.2.3' }, 443),
      }).toEqual({ name, metadata: false, privateHttps: false });
    }
    if (dir === 'base') {
      // One stack: the JWKS comes from the identity pods in-cluster.
      for (const app of ['oneroster', 'alerts'])
        expect({ app, jwks: allowed(policies, pod(app), pod('identity'), APP_PORTS.identity) }).toEqual({
          app,
          jwks: true,
        });
    }
  });
});

test('the evaluator follows the NetworkPolicy semantics it is used for', () => {
  const policy = (name: string, spec: JsonObject): K8sObject => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace: 'n' },
    spec,
  });
  const a: Endpoint = { namespace: 'n', labels: { app: 'a' }, ip: '10.0.0.1' };
  const b: Endpoint = { namespace: 'n', labels: { app: 'b' }, ip: '10.0.0.2' };
  // No policy: open.
  expect(allowed([], a, b, 80)).toBe(true);
  const deny = policy('deny', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
  expect(allowed([deny], a, b, 80)).toBe(false);
  const egress = policy('a-out', {
    podSelector: { matchLabels: { app: 'a' } },
    policyTypes: ['Egress'],
    egress: [{ to: [{ podSelector: { matchLabels: { app: 'b' } } }], ports: [{ port: 80 }] }],
  });
  const ingress = policy('b-in', {
    podSelector: { matchLabels: { app: 'b' } },
    policyTypes: ['Ingress'],
    ingress: [
      {
        from: [{ podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a'] }] } }],
        ports: [{ port: 80 }],
      },
    ],
  });
  // Both ends must allow it.
  expect([
    allowed([deny, egress], a, b, 80),
    allowed([deny, ingress], a, b, 80),
    allowed([deny, egress, ingress], a, b, 80),
    allowed([deny, egress, ingress], a, b, 81),
  ]).toEqual([false, false, true, false]);
  // A pod selector alone means the policy's namespace; ipBlock except carves out ranges.
  expect(allowed([deny, egress, ingress], { ...a, namespace: 'm' }, { ...b }, 80)).toBe(false);
  const out = policy('out', {
    podSelector: {},
    policyTypes: ['Egress'],
    egress: [
      { to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8'] } }], ports: [{ port: 443, protocol: 'TCP' }] },
    ],
  });
  expect([
    allowed([out], a, { ip: '8.8.8.8' }, 443),
    allowed([out], a, { ip: '10.9.9.9' }, 443),
    allowed([out], a, { ip: '8.8.8.8' }, 443, 'UDP'),
  ]).toEqual([true, false, false]);
  expect([inCidr('172.31.255.255', '172.16.0.0/12'), inCidr('172.32.0.0', '172.16.0.0/12')]).toEqual([true, false]);
});
