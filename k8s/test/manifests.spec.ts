/**
 * Static checks of the Kubernetes manifests under k8s/: every file parses, every object is
 * valid for its schema (kubernetes-models), every kustomization renders (see kustomize.ts),
 * and the rendered stacks keep the platform's deployment rules.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BaseEnv, HttpServiceEnv, loadConfig, ResourceServerEnv } from '@edu/config';
import { REGION_IDS } from '@edu/domain';
import { replicationConfigFromEnv } from '@edu/persistence';
import {
  containersOf,
  isK8sObject,
  isKustomization,
  isObject,
  Json,
  JsonObject,
  K8S_ROOT,
  K8sObject,
  kustomizationFiles,
  listYamlFiles,
  loadYamlDocuments,
  objectId,
  parseImage,
  podSpecOf,
  podTemplateMetadataOf,
  rel,
  renderKustomization,
  REPO_ROOT,
} from './kustomize';
import { validateWithModels } from './kubernetes-models';
import {
  API_APPS,
  APP_PORTS,
  EXTRA_PORTS,
  AppName,
  APPS,
  KNOWN_VARIABLES,
  MIGRATE_ENTRY,
  PUBLIC_URL_APPS,
  PUBLIC_URLS,
  REDIS_APPS,
  REGION_OVERLAYS,
  RUNNER,
  SECRET_VARIABLES,
  SHUTDOWN_MARGIN_SECONDS,
  SIGNIN_SECRET,
  SIGNIN_VARIABLES,
} from './platform';
import { DEPLOYABLES } from './stacks';

/** Stand-ins for Secret values, shaped like the real ones, to run the apps' config validation. */
const PLACEHOLDER_SECRETS: Record<string, string> = {
  DATABASE_URL: 'postgres://app:placeholder@postgres.internal:5432/edu',
  REDIS_URL: 'redis://redis.internal:6379',
  OPERATOR_CLIENT_SECRET: 'placeholder-operator-secret-from-the-secret-store',
  KEY_ENCRYPTION_KEY: 'placeholder-key-encryption-key-from-the-secret-store',
  ROSTER_EVENTS_CURSOR_SECRET: 'placeholder-roster-events-cursor-secret-from-the-secret-store',
  REPLICATION_SOURCE_URL: 'postgres://replicator:placeholder@global-postgres.internal:5432/edu',
};

/** The shared env class each app's own configuration extends (apps add their own fields). */
const ENV_CLASS: Record<AppName, new () => object> = {
  identity: HttpServiceEnv,
  oneroster: ResourceServerEnv,
  alerts: ResourceServerEnv,
  'webhook-dispatcher': BaseEnv,
  'roster-sync': BaseEnv,
};

// ---------------------------------------------------------------------------------------------
// helpers

type EnvVar = { name: string; value?: string; valueFrom?: JsonObject };

const asArray = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : []);
const asObject = (value: Json | undefined): JsonObject => (isObject(value) ? value : {});

function envOf(container: JsonObject): EnvVar[] {
  return asArray(container.env).filter(isObject) as unknown as EnvVar[];
}

function secretRefOf(v: EnvVar): { name: string; key: string } | undefined {
  const ref = v.valueFrom && asObject(v.valueFrom.secretKeyRef);
  return ref && typeof ref.name === 'string' && typeof ref.key === 'string'
    ? { name: ref.name, key: ref.key }
    : undefined;
}

function byKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((o) => o.kind === kind);
}

function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is missing`);
  return found;
}

function mainContainer(o: K8sObject): JsonObject {
  const containers = asArray(podSpecOf(o)?.containers).filter(isObject);
  if (containers.length !== 1) throw new Error(`${objectId(o)} should run exactly one container`);
  return containers[0];
}

function containerPort(container: JsonObject, port: Json | undefined): number | undefined {
  const ports = asArray(container.ports).filter(isObject);
  const match = ports.find((p) => p.name === port || p.containerPort === port);
  return match && typeof match.containerPort === 'number' ? match.containerPort : undefined;
}

function probeTarget(container: JsonObject, probe: string): { path?: Json; port?: number } {
  const httpGet = asObject(asObject(container[probe]).httpGet);
  return { path: httpGet.path, port: containerPort(container, httpGet.port) };
}

/** The environment a Deployment's container starts with: ConfigMaps, literals, Secret placeholders. */
function effectiveEnv(objects: K8sObject[], container: JsonObject): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of asArray(container.envFrom).filter(isObject)) {
    const name = asObject(source.configMapRef).name;
    const cm = byKind(objects, 'ConfigMap').find((c) => c.metadata.name === name);
    if (!cm) throw new Error(`envFrom refers to ConfigMap ${String(name)}, which is not in the render`);
    Object.assign(env, asObject(cm.data));
  }
  for (const v of envOf(container)) {
    const configRef = v.valueFrom && asObject(v.valueFrom.configMapKeyRef);
    if (typeof v.value === 'string') env[v.name] = v.value;
    else if (secretRefOf(v)) env[v.name] = PLACEHOLDER_SECRETS[v.name] ?? 'placeholder';
    else if (configRef && typeof configRef.name === 'string') {
      const data = asObject(byKind(objects, 'ConfigMap').find((c) => c.metadata.name === configRef.name)?.data);
      if (typeof data[String(configRef.key)] !== 'string')
        throw new Error(
          `${v.name} refers to ConfigMap ${configRef.name} key ${String(configRef.key)}, which is not in the render`,
        );
      env[v.name] = data[String(configRef.key)] as string;
    }
  }
  return env;
}

function appOf(o: K8sObject): AppName | undefined {
  const name = o.metadata.name;
  return (APPS as string[]).includes(name) ? (name as AppName) : undefined;
}

function labelsMatch(selector: Json | undefined, labels: Json | undefined): boolean {
  const wanted = Object.entries(asObject(selector));
  const have = asObject(labels);
  return wanted.length > 0 && wanted.every(([k, v]) => have[k] === v);
}

// ---------------------------------------------------------------------------------------------
// every file

const yamlFiles = listYamlFiles(K8S_ROOT);
const kustomizationDirs = yamlFiles.filter((f) => path.basename(f) === 'kustomization.yaml').map(path.dirname);

describe('YAML files under k8s/', () => {
  test('there are manifests to check', () => {
    expect(yamlFiles.length).toBeGreaterThanOrEqual(10);
    expect(kustomizationDirs.map(rel)).toEqual(
      expect.arrayContaining(Object.values(DEPLOYABLES).map((d) => `k8s/${d.dir}`)),
    );
  });

  test.each(yamlFiles.map(rel))('%s parses, and every document is a Kustomization or a Kubernetes object', (file) => {
    const docs = loadYamlDocuments(path.join(REPO_ROOT, file));
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) expect(isKustomization(doc) || isK8sObject(doc)).toBe(true);
    if (path.basename(file) === 'kustomization.yaml') expect(docs).toHaveLength(1);
  });

  test('every kustomization lists only resources and patches that exist', () => {
    for (const dir of kustomizationDirs) {
      const { resources, patches } = kustomizationFiles(dir);
      for (const f of [...resources, ...patches]) expect(fs.existsSync(f)).toBe(true);
    }
  });

  test('every YAML file is a kustomization or is used by one (no forgotten manifests)', () => {
    const used = new Set<string>();
    for (const dir of kustomizationDirs) {
      const { resources, patches } = kustomizationFiles(dir);
      for (const f of [...resources, ...patches]) used.add(f);
    }
    const orphans = yamlFiles.filter((f) => path.basename(f) !== 'kustomization.yaml' && !used.has(f)).map(rel);
    expect(orphans).toEqual([]);
  });

  test('every Kubernetes object validates against the kubernetes-models schema of its apiVersion and kind', () => {
    const patchFiles = new Set(kustomizationDirs.flatMap((d) => kustomizationFiles(d).patches));
    const objects: Array<{ file: string; object: K8sObject }> = [];
    for (const file of yamlFiles) {
      if (patchFiles.has(file)) continue;
      for (const doc of loadYamlDocuments(file))
        if (!isKustomization(doc) && isK8sObject(doc)) objects.push({ file: rel(file), object: doc });
    }
    expect(objects.length).toBeGreaterThanOrEqual(15);
    const results = validateWithModels(objects.map((o) => o.object));
    const problems = results.flatMap((r, i) =>
      r.status === 'valid'
        ? []
        : [
            `${objects[i].file} ${objectId(objects[i].object)}: ${r.status === 'invalid' ? r.message : `unknown kind ${objects[i].object.apiVersion} ${objects[i].object.kind}`}`,
          ],
    );
    expect(problems).toEqual([]);
  });

  test('every patch names an object kind that kubernetes-models knows', () => {
    const patchFiles = [...new Set(kustomizationDirs.flatMap((d) => kustomizationFiles(d).patches))];
    expect(patchFiles.length).toBeGreaterThan(0);
    const patches = patchFiles.map((f) => loadYamlDocuments(f)[0] as K8sObject);
    // A patch is partial, so only its kind is checked here; the patched result is validated per render.
    const skeletons = patches.map((p) => ({
      apiVersion: p.apiVersion,
      kind: p.kind,
      metadata: { name: p.metadata.name },
    }));
    expect(validateWithModels(skeletons).map((r) => r.status)).toEqual(patches.map(() => 'valid'));
  });

  test('no Secret is defined in the repository (Secrets are created out of band)', () => {
    const secrets = yamlFiles.flatMap((f) =>
      loadYamlDocuments(f)
        .filter((d) => isObject(d) && d.kind === 'Secret')
        .map(() => rel(f)),
    );
    expect(secrets).toEqual([]);
    for (const dir of kustomizationDirs) {
      const raw = loadYamlDocuments(path.join(dir, 'kustomization.yaml'))[0] as JsonObject;
      expect(raw.secretGenerator).toBeUndefined();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// every deployable render

describe.each(Object.entries(DEPLOYABLES))('rendered %s', (_name, { dir, apps }) => {
  let objects: K8sObject[] = [];
  let deployments: K8sObject[] = [];
  let workloads: K8sObject[] = [];

  beforeAll(() => {
    objects = renderKustomization(path.join(K8S_ROOT, dir));
    deployments = byKind(objects, 'Deployment');
    workloads = [...deployments, ...byKind(objects, 'Job')];
  });

  test('every rendered object (patches applied) validates against its kubernetes-models schema', () => {
    const results = validateWithModels(objects);
    const problems = results.flatMap((r, i) =>
      r.status === 'valid' ? [] : [`${objectId(objects[i])}: ${r.status === 'invalid' ? r.message : 'unknown kind'}`],
    );
    expect(problems).toEqual([]);
  });

  test('runs exactly the expected apps, one Deployment each, plus the migration Job', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...apps].sort());
    expect(byKind(objects, 'Job').map((j) => j.metadata.name)).toEqual(['migrate']);
  });

  test('every Deployment probes liveness on /health/live and readiness on /health/ready at its app port', () => {
    for (const d of deployments) {
      const app = appOf(d)!;
      const c = mainContainer(d);
      expect({
        id: objectId(d),
        live: probeTarget(c, 'livenessProbe'),
        ready: probeTarget(c, 'readinessProbe'),
      }).toEqual({
        id: objectId(d),
        live: { path: '/health/live', port: APP_PORTS[app] },
        ready: { path: '/health/ready', port: APP_PORTS[app] },
      });
      const startup = asObject(c.startupProbe);
      if (Object.keys(startup).length > 0) expect(probeTarget(c, 'startupProbe').path).toBe('/health/live');
    }
  });

  test('every app listens on its port (containerPort and PORT agree with the port table)', () => {
    for (const d of deployments) {
      const app = appOf(d)!;
      const c = mainContainer(d);
      expect(
        asArray(c.ports)
          .filter(isObject)
          .map((p) => p.containerPort),
      ).toEqual([APP_PORTS[app], ...(EXTRA_PORTS[app] ?? [])]);
      expect(effectiveEnv(objects, c).PORT).toBe(String(APP_PORTS[app]));
      const annotations = asObject(podTemplateMetadataOf(d)?.annotations);
      expect([annotations['prometheus.io/port'], annotations['prometheus.io/path']]).toEqual([
        String(APP_PORTS[app]),
        '/metrics',
      ]);
    }
  });

  test('every container requests and limits CPU and memory', () => {
    for (const o of workloads) {
      for (const c of containersOf(o)) {
        const resources = asObject(c.resources);
        for (const bound of ['requests', 'limits']) {
          const b = asObject(resources[bound]);
          expect({ id: objectId(o), bound, cpu: typeof b.cpu, memory: typeof b.memory }).toEqual({
            id: objectId(o),
            bound,
            cpu: 'string',
            memory: 'string',
          });
        }
      }
    }
  });

  test('every pod runs as a non-root user with a read-only root filesystem and no extra privileges', () => {
    for (const o of workloads) {
      const pod = asObject(podSpecOf(o)?.securityContext);
      expect({ id: objectId(o), runAsNonRoot: pod.runAsNonRoot }).toEqual({ id: objectId(o), runAsNonRoot: true });
      expect(typeof pod.runAsUser === 'number' && pod.runAsUser > 0).toBe(true);
      expect({ id: objectId(o), seccomp: asObject(pod.seccompProfile).type }).toEqual({
        id: objectId(o),
        seccomp: 'RuntimeDefault',
      });
      expect(podSpecOf(o)?.automountServiceAccountToken).toBe(false);
      // What must be written (Node's temporary files) goes to a size-limited emptyDir on /tmp.
      const volumes = asArray(podSpecOf(o)?.volumes).filter(isObject);
      for (const c of containersOf(o)) {
        const tmp = asArray(c.volumeMounts)
          .filter(isObject)
          .find((m) => m.mountPath === '/tmp');
        const volume = volumes.find((v) => v.name === tmp?.name);
        expect({ id: objectId(o), container: c.name, tmp: typeof asObject(volume?.emptyDir).sizeLimit }).toEqual({
          id: objectId(o),
          container: c.name,
          tmp: 'string',
        });
      }
      for (const c of containersOf(o)) {
        const sc = asObject(c.securityContext);
        expect({
          id: objectId(o),
          escalation: sc.allowPrivilegeEscalation,
          readOnly: sc.readOnlyRootFilesystem,
          drop: asObject(sc.capabilities).drop,
        }).toEqual({
          id: objectId(o),
          escalation: false,
          readOnly: true,
          drop: ['ALL'],
        });
        expect(sc.privileged === undefined || sc.privileged === false).toBe(true);
        expect(sc.runAsUser === undefined || (typeof sc.runAsUser === 'number' && sc.runAsUser > 0)).toBe(true);
      }
    }
  });

  test('secrets are only referenced: credential variables come from secretKeyRef, never from values or ConfigMaps', () => {
    for (const o of workloads) {
      for (const c of containersOf(o)) {
        for (const v of envOf(c)) {
          if ((SECRET_VARIABLES as readonly string[]).includes(v.name)) {
            expect({ id: objectId(o), name: v.name, value: v.value, ref: secretRefOf(v)?.key }).toEqual({
              id: objectId(o),
              name: v.name,
              value: undefined,
              ref: v.name,
            });
          }
          // No literal value may carry a password, whatever its name.
          if (typeof v.value === 'string') expect(v.value).not.toMatch(/:\/\/[^/@\s]*:[^/@\s]*@/);
        }
        for (const source of asArray(c.envFrom).filter(isObject)) expect(source.secretRef).toBeUndefined();
      }
    }
    for (const cm of byKind(objects, 'ConfigMap')) {
      const data = asObject(cm.data);
      for (const secret of SECRET_VARIABLES) expect(Object.keys(data)).not.toContain(secret);
      for (const value of Object.values(data)) expect(String(value)).not.toMatch(/:\/\/[^/@\s]*:[^/@\s]*@/);
    }
  });

  test('every app gets the secrets it needs from a Secret', () => {
    for (const d of deployments) {
      const app = appOf(d)!;
      const refs = envOf(mainContainer(d))
        .filter((v) => secretRefOf(v))
        .map((v) => v.name);
      const needed = ['DATABASE_URL', ...(REDIS_APPS.includes(app) ? ['REDIS_URL'] : [])];
      if (app === 'identity') needed.push('OPERATOR_CLIENT_SECRET', 'KEY_ENCRYPTION_KEY', ...SIGNIN_VARIABLES);
      if (app === 'webhook-dispatcher' || app === 'alerts') needed.push('KEY_ENCRYPTION_KEY');
      if (app === 'roster-sync') needed.push('KEY_ENCRYPTION_KEY', 'ROSTER_SFTP_HOST_KEY');
      if (app === 'oneroster') needed.push('KEY_ENCRYPTION_KEY');
      if (app === 'oneroster') needed.push('ROSTER_EVENTS_CURSOR_SECRET');
      expect(refs.sort()).toEqual(needed.sort());
      // The sign-in settings are optional keys of their own optional Secret: a stack without them starts.
      const signIn = envOf(mainContainer(d)).filter((v) => SIGNIN_VARIABLES.includes(v.name));
      for (const v of signIn)
        expect({ name: v.name, ref: asObject(v.valueFrom?.secretKeyRef) }).toEqual({
          name: v.name,
          ref: { name: SIGNIN_SECRET, key: v.name, optional: true },
        });
    }
    const job = find(objects, 'Job', 'migrate');
    // A regional database subscribes to the global one: the Job also gets the global database's URL.
    const regional = dir.startsWith('overlays/') && dir !== 'overlays/global';
    expect(
      envOf(mainContainer(job))
        .filter((v) => secretRefOf(v))
        .map((v) => v.name),
    ).toEqual(regional ? ['DATABASE_URL', 'REPLICATION_SOURCE_URL'] : ['DATABASE_URL']);
  });

  test('the migration Job sets up the identity replication its database plays a part in (none in one stack)', () => {
    const env = effectiveEnv(objects, mainContainer(find(objects, 'Job', 'migrate')));
    // The same reading of the environment the migration runner does at start.
    const config = replicationConfigFromEnv(env);
    const expected =
      dir === 'base'
        ? { role: 'none' }
        : dir === 'overlays/global'
          ? { role: 'publisher' }
          : {
              role: 'subscriber',
              sourceUrl: PLACEHOLDER_SECRETS.REPLICATION_SOURCE_URL,
              subscription: expect.stringMatching(/^edu_identity_/),
            };
    expect(config).toEqual(expected);
    if (config.role === 'subscriber')
      expect(config.subscription).toBe(`edu_identity_${String(env.SERVICE_REGION).toLowerCase().replace(/-/g, '_')}`);
  });

  test('every variable set is one the processes read, and envFrom ConfigMaps exist', () => {
    for (const o of workloads) {
      for (const c of containersOf(o)) {
        const names = Object.keys(effectiveEnv(objects, c));
        expect(names.filter((n) => !KNOWN_VARIABLES.has(n))).toEqual([]);
      }
    }
    for (const cm of byKind(objects, 'ConfigMap'))
      expect(Object.keys(asObject(cm.data)).filter((n) => !KNOWN_VARIABLES.has(n))).toEqual([]);
  });

  test("every app's environment passes the shared config validation the app runs at boot", () => {
    for (const d of deployments) {
      const app = appOf(d)!;
      const env = effectiveEnv(objects, mainContainer(d));
      expect(env.NODE_ENV).toBe('production');
      expect(() => loadConfig(ENV_CLASS[app], env)).not.toThrow();
    }
  });

  test('apps that write public links are told their public https URL, an origin without path, query or credentials', () => {
    const linking = deployments.filter((d) => PUBLIC_URL_APPS.includes(appOf(d)!));
    expect(linking.map((d) => d.metadata.name).sort()).toEqual(apps.filter((a) => PUBLIC_URL_APPS.includes(a)).sort());
    for (const d of linking) {
      const raw = effectiveEnv(objects, mainContainer(d)).PUBLIC_BASE_URL;
      const url = new URL(String(raw));
      expect({
        id: objectId(d),
        raw: url.href,
        protocol: url.protocol,
        path: url.pathname,
        extra: `${url.username}${url.search}${url.hash}`,
      }).toEqual({
        id: objectId(d),
        raw: `${raw}/`,
        protocol: 'https:',
        path: '/',
        extra: '',
      });
    }
  });

  test('Services select a Deployment and target a named port its container declares', () => {
    const services = byKind(objects, 'Service');
    for (const s of services) {
      const spec = asObject(s.spec);
      const targets = deployments.filter((d) => labelsMatch(spec.selector, podTemplateMetadataOf(d)?.labels));
      expect({ id: objectId(s), targets: targets.length }).toEqual({ id: objectId(s), targets: 1 });
      for (const port of asArray(spec.ports).filter(isObject)) {
        expect(containerPort(mainContainer(targets[0]), port.targetPort)).toBe(port.port);
      }
    }
    for (const app of apps) {
      const wanted = app === 'webhook-dispatcher' || app === 'roster-sync' ? `${app}-metrics` : app;
      expect(services.map((s) => s.metadata.name)).toContain(wanted);
    }
  });

  test('the APIs are autoscaled (HPA min 2) and every HPA and PodDisruptionBudget targets a Deployment here', () => {
    const hpas = byKind(objects, 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.metadata.name).sort()).toEqual(apps.filter((a) => API_APPS.includes(a)).sort());
    for (const h of hpas) {
      const spec = asObject(h.spec);
      const target = asObject(spec.scaleTargetRef);
      const d = find(objects, 'Deployment', String(target.name));
      expect([target.apiVersion, target.kind]).toEqual([d.apiVersion, 'Deployment']);
      expect(spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(spec.maxReplicas as number).toBeGreaterThan(spec.minReplicas as number);
      // The HPA owns the replica count; a fixed count in the Deployment would fight it on every apply.
      expect(asObject(d.spec).replicas).toBeUndefined();
    }
    for (const pdb of byKind(objects, 'PodDisruptionBudget')) {
      const selector = asObject(asObject(pdb.spec).selector).matchLabels;
      expect(deployments.filter((d) => labelsMatch(selector, podTemplateMetadataOf(d)?.labels))).toHaveLength(1);
    }
  });

  test('images are pinned to a tag (never latest) and each app runs its own image', () => {
    for (const o of workloads) {
      for (const c of containersOf(o)) {
        const image = parseImage(String(c.image));
        expect(image.tag ?? image.digest).toBeDefined();
        expect(image.tag).not.toBe('latest');
      }
    }
    for (const d of deployments) {
      const c = mainContainer(d);
      expect(parseImage(String(c.image)).name).toMatch(new RegExp(`/${appOf(d)}$`));
      // The image's CMD starts the app; overriding it here would bypass the Dockerfile's choice.
      expect(c.command).toBeUndefined();
    }
  });

  test('the migration Job runs the migration entry point from the identity image, once, without restarts in place', () => {
    const job = find(objects, 'Job', 'migrate');
    const c = mainContainer(job);
    expect(parseImage(String(c.image)).name).toMatch(/\/identity$/);
    expect(c.command).toEqual(['node', RUNNER, MIGRATE_ENTRY]);
    expect(podSpecOf(job)?.restartPolicy).toBe('Never');
    expect(asObject(job.spec).backoffLimit).toBeGreaterThanOrEqual(1);
    expect(effectiveEnv(objects, c).NODE_ENV).toBe('production');
  });

  test('the webhook dispatcher, when present, has a shutdown grace period above the webhook send timeout', () => {
    const dispatcher = deployments.find((d) => d.metadata.name === 'webhook-dispatcher');
    if (!apps.includes('webhook-dispatcher')) {
      expect(dispatcher).toBeUndefined();
      return;
    }
    const timeoutMs = Number(effectiveEnv(objects, mainContainer(dispatcher!)).WEBHOOK_TIMEOUT_MS);
    expect(timeoutMs).toBe(30_000);
    expect(podSpecOf(dispatcher!)?.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      timeoutMs / 1000 + SHUTDOWN_MARGIN_SECONDS,
    );
    // Several workers so a restart never stops delivery.
    expect(asObject(dispatcher!.spec).replicas).toBeGreaterThanOrEqual(2);
  });

  test('every API pod gets time to leave the load balancers before its grace period runs out', () => {
    for (const d of deployments.filter((x) => API_APPS.includes(appOf(x)!))) {
      const sleep = asObject(asObject(asObject(mainContainer(d).lifecycle).preStop).sleep).seconds;
      expect(typeof sleep).toBe('number');
      expect(podSpecOf(d)?.terminationGracePeriodSeconds as number).toBeGreaterThan((sleep as number) + 10);
    }
  });

  test('every object carries the part-of label, and selectors use only the stable name label', () => {
    for (const o of objects.filter((x) => x.kind !== 'Namespace'))
      expect(o.metadata.labels?.['app.kubernetes.io/part-of']).toBe('edu-platform');
    for (const d of deployments) {
      expect(asObject(asObject(d.spec).selector).matchLabels).toEqual({ 'app.kubernetes.io/name': d.metadata.name });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// what differs between stacks

const configOf = (objects: K8sObject[]): JsonObject => asObject(find(objects, 'ConfigMap', 'edu-platform-config').data);

describe('the unified stack (k8s/base)', () => {
  let objects: K8sObject[] = [];
  beforeAll(() => {
    objects = renderKustomization(path.join(K8S_ROOT, 'base'));
  });

  test('serves every region: no SERVICE_REGION, no namespace forced', () => {
    expect(configOf(objects).SERVICE_REGION).toBeUndefined();
    for (const o of objects) expect(o.metadata.namespace).toBeUndefined();
  });

  test('verifies tokens against the in-cluster identity Service', () => {
    const jwks = new URL(String(configOf(objects).JWKS_URL));
    const identity = find(objects, 'Service', jwks.hostname);
    expect(
      asArray(asObject(identity.spec).ports)
        .filter(isObject)
        .map((p) => String(p.port)),
    ).toContain(jwks.port);
    expect(jwks.pathname).toBe('/.well-known/jwks.json');
  });

  test('writes links on the unified host', () => {
    for (const app of PUBLIC_URL_APPS) {
      expect({
        app,
        url: effectiveEnv(objects, mainContainer(find(objects, 'Deployment', app))).PUBLIC_BASE_URL,
      }).toEqual({ app, url: PUBLIC_URLS.base });
    }
  });

  test('uses one Secret, edu-platform-secrets, for every credential (and the optional sign-in one)', () => {
    const names = new Set(
      byKind(objects, 'Deployment')
        .concat(byKind(objects, 'Job'))
        .flatMap(containersOf)
        .flatMap(envOf)
        .map(secretRefOf)
        .filter(Boolean)
        .map((r) => r!.name),
    );
    expect([...names].sort()).toEqual(['edu-platform-secrets', SIGNIN_SECRET]);
  });
});

describe('the global stack (k8s/overlays/global)', () => {
  let objects: K8sObject[] = [];
  beforeAll(() => {
    objects = renderKustomization(path.join(K8S_ROOT, 'overlays/global'));
  });

  test('runs identity in its own namespace, with no regional service and no SERVICE_REGION', () => {
    const namespace = find(objects, 'Namespace', 'edu-global');
    expect(namespace).toBeDefined();
    for (const o of objects.filter((x) => x.kind !== 'Namespace')) expect(o.metadata.namespace).toBe('edu-global');
    expect(configOf(objects).SERVICE_REGION).toBeUndefined();
    expect(byKind(objects, 'Deployment').map((d) => d.metadata.name)).toEqual(['identity']);
  });
});

describe.each(Object.entries(REGION_OVERLAYS))('the %s regional stack', (overlay, region) => {
  let objects: K8sObject[] = [];
  beforeAll(() => {
    objects = renderKustomization(path.join(K8S_ROOT, 'overlays', overlay));
  });
  const namespace = `edu-${overlay}`;
  const regionalSecret = `edu-platform-secrets-${overlay}`;

  test('is a region the code knows', () => {
    expect(REGION_IDS as readonly string[]).toContain(region);
  });

  test('lives in its own namespace, created by the overlay', () => {
    expect(find(objects, 'Namespace', namespace)).toBeDefined();
    for (const o of objects.filter((x) => x.kind !== 'Namespace')) expect(o.metadata.namespace).toBe(namespace);
  });

  test('serves only its region and verifies tokens against the public JWKS of the global identity service', () => {
    const config = configOf(objects);
    expect(config.SERVICE_REGION).toBe(region);
    const jwks = new URL(String(config.JWKS_URL));
    expect(jwks.protocol).toBe('https:');
    expect(jwks.pathname).toBe('/.well-known/jwks.json');
    // Tokens are issued by the same global identity service the JWKS comes from.
    expect(jwks.origin).toBe(new URL(String(config.TOKEN_ISSUER)).origin);
    expect(objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'identity')).toBeUndefined();
  });

  test('writes links on the regional host', () => {
    for (const app of PUBLIC_URL_APPS) {
      expect({
        app,
        url: effectiveEnv(objects, mainContainer(find(objects, 'Deployment', app))).PUBLIC_BASE_URL,
      }).toEqual({ app, url: PUBLIC_URLS[overlay as keyof typeof PUBLIC_URLS] });
    }
  });

  test("reads PostgreSQL and Redis from the region's own Secret, migrations included", () => {
    const workloads = [...byKind(objects, 'Deployment'), ...byKind(objects, 'Job')];
    const secretOf = (o: K8sObject, name: string) => {
      const v = envOf(mainContainer(o)).find((e) => e.name === name);
      return v && (secretRefOf(v)?.name ?? 'not from a Secret');
    };
    expect(workloads.length).toBeGreaterThan(0);
    for (const o of workloads) {
      const app = appOf(o);
      // Every workload reads the region's PostgreSQL; the queue's users read its Redis too.
      const stores = ['DATABASE_URL', ...(app && REDIS_APPS.includes(app) ? ['REDIS_URL'] : [])];
      expect({ id: objectId(o), secrets: stores.map((name) => secretOf(o, name)) }).toEqual({
        id: objectId(o),
        secrets: stores.map(() => regionalSecret),
      });
    }
    expect(secretOf(find(objects, 'Job', 'migrate'), 'REPLICATION_SOURCE_URL')).toBe(regionalSecret);
    // Platform-wide key material (same value in every stack) stays in the common Secret.
    const keyReaders = workloads.filter((o) => secretOf(o, 'KEY_ENCRYPTION_KEY') !== undefined);
    expect(keyReaders.map((o) => o.metadata.name)).toEqual(expect.arrayContaining(['webhook-dispatcher', 'alerts']));
    for (const o of keyReaders)
      expect({ id: objectId(o), secret: secretOf(o, 'KEY_ENCRYPTION_KEY') }).toEqual({
        id: objectId(o),
        secret: 'edu-platform-secrets',
      });
  });

  test('labels every object and pod with its region', () => {
    for (const o of objects) expect(o.metadata.labels?.['edu-platform/region']).toBe(region);
    for (const o of objects) {
      const template = podTemplateMetadataOf(o);
      if (template) expect(asObject(template.labels)['edu-platform/region']).toBe(region);
    }
  });
});

test('the regional stacks share no namespace and no data-store Secret', () => {
  const overlays = Object.keys(REGION_OVERLAYS);
  const renders = overlays.map((o) => renderKustomization(path.join(K8S_ROOT, 'overlays', o)));
  const namespaces = renders.map(
    (objects) => find(objects, 'Namespace', objects.find((o) => o.kind === 'Namespace')!.metadata.name).metadata.name,
  );
  expect(new Set(namespaces).size).toBe(overlays.length);
  const dataSecrets = renders.map(
    (objects) =>
      new Set(
        byKind(objects, 'Deployment')
          .flatMap(containersOf)
          .flatMap(envOf)
          .filter((v) => v.name === 'DATABASE_URL' || v.name === 'REDIS_URL')
          .map((v) => secretRefOf(v)!.name),
      ),
  );
  for (const s of dataSecrets) expect(s.size).toBe(1);
  expect(new Set(dataSecrets.map((s) => [...s][0])).size).toBe(overlays.length);
});

test('k8s/README.md documents every Secret and key the manifests reference', () => {
  const readme = fs.readFileSync(path.join(K8S_ROOT, 'README.md'), 'utf8');
  const refs = new Set<string>();
  for (const { dir } of Object.values(DEPLOYABLES)) {
    for (const o of renderKustomization(path.join(K8S_ROOT, dir))) {
      for (const c of containersOf(o))
        for (const v of envOf(c)) if (secretRefOf(v)) refs.add(`${secretRefOf(v)!.name} ${secretRefOf(v)!.key}`);
    }
  }
  expect(refs.size).toBeGreaterThanOrEqual(6);
  // One line of the README (a table row) names the Secret together with each of its keys.
  const undocumented = [...refs].filter((ref) => {
    const [secret, key] = ref.split(' ');
    return !readme.split('\n').some((line) => line.includes(`\`${secret}\``) && line.includes(`\`${key}\``));
  });
  expect(undocumented).toEqual([]);
});
