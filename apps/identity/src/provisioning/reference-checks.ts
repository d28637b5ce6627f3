import type { EntityManager, ObjectLiteral } from 'typeorm';
import { isUuid, type ScopeCatalog } from '@edu/domain';
import {
  AppEntity,
  ConstituencyEntity,
  CoreIdentityProviderEntity,
  DeploymentEntity,
  DeveloperEntity,
  IdentityProviderEntity,
  RegionEntity,
  TenantEntity,
  VanityDomainEntity,
} from '@edu/persistence';
import { normalizeDomain, normalizeEmail } from '../common/ids';
import { scopeGrantProblem } from '../deployments/grantable-scopes';
import type { ProvisionFile } from './provision-file';
import { checkUserRecords } from './user-records';

/*
 * The provisioning file's cross-references, section by section, against the file and the database.
 * Each section's validator appends its problems in file order; the sections run in dependency order
 * (a deployment's app may come from the file's apps section), so the list reads like the file.
 */

type Directory = Awaited<ReturnType<typeof loadDirectory>>;
type Repeated = <T>(section: string, items: T[], key: (t: T) => string, field: string) => void;
type ClaimClientId = (clientId: string | undefined, record: string, own: string) => void;
type ProviderProblem = (idpId: string, tenant?: string) => string | undefined;
type AppOwner = { type: string; id: string };

/** What every section's validator reads and where it reports. */
interface Checks {
  f: ProvisionFile;
  db: Directory;
  problems: string[];
  repeated: Repeated;
}

/** Every cross-reference problem of the file; empty when it can be written. */
export async function referenceProblems(f: ProvisionFile, m: EntityManager, catalog: ScopeCatalog): Promise<string[]> {
  const problems: string[] = [];
  const c: Checks = { f, db: await loadDirectory(m), problems, repeated: repeatedKeys(problems) };
  const tenantIds = checkTenants(c);
  const developerIds = checkDevelopers(c);
  const appOwners = checkApps(c, tenantIds, developerIds);
  const claimClientId = clientIdClaims(c);
  f.apps.forEach((a, i) => claimClientId(a.client_id, `apps[${i}]`, `app:${a.id.toLowerCase()}`));
  const providerTenant = checkIdentityProviders(c, tenantIds);
  const providerProblem = providerProblems(c.db, providerTenant);
  const constituencyKeys = checkConstituencies(c, tenantIds, providerProblem);
  await checkUserRecords(
    f,
    { tenantIds, providerTenant, constituencyKeys, providerProblem, repeated: c.repeated },
    m,
    problems,
  );
  checkDeployments(c, { tenantIds, appOwners, claimClientId, catalog });
  checkVanityDomains(c, tenantIds);
  return problems;
}

/** Reports records of a section that repeat a key. */
function repeatedKeys(problems: string[]): Repeated {
  return (section, items, key, field) => {
    const first = new Map<string, number>();
    items.forEach((item, i) => {
      const k = key(item);
      if (first.has(k))
        problems.push(`${section}[${i}].${field}: repeated in the file (also ${section}[${first.get(k)}])`);
      else first.set(k, i);
    });
  };
}

/** Tenants' regions and customer ids; returns the tenant ids of the file and the database. */
function checkTenants({ f, db, problems, repeated }: Checks): Set<string> {
  repeated('tenants', f.tenants, (t) => t.id.toLowerCase(), 'id');
  repeated('tenants', f.tenants, (t) => String(t.customer_id), 'customer_id');
  f.tenants.forEach((t, i) => {
    if (!db.regions.has(t.region))
      problems.push(`tenants[${i}].region: unknown region "${t.region}" (known: ${[...db.regions].join(', ')})`);
    const holder = db.tenantByCustomerId.get(t.customer_id);
    if (holder && holder !== t.id.toLowerCase())
      problems.push(`tenants[${i}].customer_id: already used by tenant ${holder}`);
  });
  return new Set([...db.tenants.keys(), ...f.tenants.map((t) => t.id.toLowerCase())]);
}

/** Developers' e-mail addresses; returns the developer ids of the file and the database. */
function checkDevelopers({ f, db, problems, repeated }: Checks): Set<string> {
  repeated('developers', f.developers, (d) => d.id.toLowerCase(), 'id');
  repeated('developers', f.developers, (d) => normalizeEmail(d.email), 'email');
  f.developers.forEach((d, i) => {
    const holder = db.developerByEmail.get(normalizeEmail(d.email));
    if (holder && holder !== d.id.toLowerCase())
      problems.push(`developers[${i}].email: already used by developer ${holder}`);
  });
  return new Set([...db.developers, ...f.developers.map((d) => d.id.toLowerCase())]);
}

/** Apps' owners; returns the owner of every app in the file or the database. */
function checkApps(
  { f, db, problems, repeated }: Checks,
  tenantIds: Set<string>,
  developerIds: Set<string>,
): Map<string, AppOwner> {
  repeated('apps', f.apps, (a) => a.id.toLowerCase(), 'id');
  const appOwners = new Map<string, AppOwner>(db.appOwners);
  f.apps.forEach((a, i) => {
    const owner = { type: a.owner.type, id: a.owner.id.toLowerCase() };
    appOwners.set(a.id.toLowerCase(), owner);
    const known = owner.type === 'tenant' ? tenantIds.has(owner.id) : developerIds.has(owner.id);
    if (!known) problems.push(`apps[${i}].owner.id: no ${owner.type} ${owner.id} in the file or the database`);
  });
  return appOwners;
}

/** Client ids are unique across apps and deployments, in the file and against the database. */
function clientIdClaims({ db, problems }: Checks): ClaimClientId {
  const fileClientIds = new Map<string, string>();
  return (clientId, record, own) => {
    if (!clientId) return;
    const other = fileClientIds.get(clientId);
    if (other) problems.push(`${record}.client_id: repeated in the file (also ${other})`);
    fileClientIds.set(clientId, record);
    const holder = db.clientIds.get(clientId);
    if (holder && holder !== own) problems.push(`${record}.client_id: already used by another client`);
  };
}

/** Providers' tenants and secrets; returns the owner tenant of every provider in the file or the database. */
function checkIdentityProviders({ f, db, problems, repeated }: Checks, tenantIds: Set<string>): Map<string, string> {
  repeated('identity_providers', f.identity_providers, (p) => p.id.toLowerCase(), 'id');
  const providerTenant = new Map<string, string>(db.providerTenant);
  f.identity_providers.forEach((p, i) => {
    const tenant = p.tenant.toLowerCase();
    if (!tenantIds.has(tenant))
      problems.push(`identity_providers[${i}].tenant: no tenant ${tenant} in the file or the database`);
    const current = db.providerTenant.get(p.id.toLowerCase());
    if (current && current !== tenant) problems.push(`identity_providers[${i}].id: belongs to another tenant`);
    // Files stay free of providers' secrets (the CLI has no key-encryption key); the API seals them.
    if (p.oauth2?.client_secret !== undefined)
      problems.push(
        `identity_providers[${i}].oauth2.client_secret: not accepted in a provisioning file; set it with PATCH /identity-providers/:id`,
      );
    providerTenant.set(p.id.toLowerCase(), tenant);
  });
  return providerTenant;
}

/** Why an identity provider id (a core provider's name or a tenant's provider's UUID) cannot be used, if it cannot. */
function providerProblems(db: Directory, providerTenant: Map<string, string>): ProviderProblem {
  return (idpId, tenant) => {
    if (!isUuid(idpId))
      return db.coreProviders.has(idpId)
        ? undefined
        : `"${idpId}" is not a core identity provider (known: ${[...db.coreProviders].join(', ')})`;
    const owner = providerTenant.get(idpId.toLowerCase());
    if (!owner) return `no identity provider ${idpId} in the file or the database`;
    if (tenant && owner !== tenant) return `identity provider ${idpId} belongs to another tenant`;
    return undefined;
  };
}

/** Constituencies' tenants and providers; returns the `tenant/constituency` keys of the file and the database. */
function checkConstituencies(
  { f, db, problems, repeated }: Checks,
  tenantIds: Set<string>,
  providerProblem: ProviderProblem,
): Set<string> {
  repeated('constituencies', f.constituencies, (c) => `${c.tenant_id.toLowerCase()}/${c.id}`, 'id');
  f.constituencies.forEach((c, i) => {
    const tenant = c.tenant_id.toLowerCase();
    if (!tenantIds.has(tenant))
      problems.push(`constituencies[${i}].tenant_id: no tenant ${tenant} in the file or the database`);
    c.allowed_identity_providers.forEach((idp, j) => {
      const p = providerProblem(idp, tenant);
      if (p) problems.push(`constituencies[${i}].allowed_identity_providers[${j}]: ${p}`);
    });
  });
  return new Set([...db.constituencies, ...f.constituencies.map((c) => `${c.tenant_id.toLowerCase()}/${c.id}`)]);
}

interface DeploymentRefs {
  tenantIds: Set<string>;
  appOwners: Map<string, AppOwner>;
  claimClientId: ClaimClientId;
  catalog: ScopeCatalog;
}

/** Deployments' tenants, apps, scopes, ids and client ids. */
function checkDeployments({ f, db, problems, repeated }: Checks, refs: DeploymentRefs): void {
  repeated('deployments', f.deployments, (d) => `${d.tenant_id.toLowerCase()}/${d.app_id.toLowerCase()}`, 'app_id');
  repeated(
    'deployments',
    f.deployments.filter((d) => d.id),
    (d) => (d.id as string).toLowerCase(),
    'id',
  );
  f.deployments.forEach((d, i) => {
    const tenant = d.tenant_id.toLowerCase();
    const app = d.app_id.toLowerCase();
    if (!refs.tenantIds.has(tenant))
      problems.push(`deployments[${i}].tenant_id: no tenant ${tenant} in the file or the database`);
    const owner = refs.appOwners.get(app);
    if (!owner) problems.push(`deployments[${i}].app_id: no app ${app} in the file or the database`);
    else if (owner.type === 'tenant' && owner.id !== tenant)
      problems.push(`deployments[${i}].app_id: the app is owned by another tenant`);
    d.scope.forEach((s, j) => {
      // The operator's own rule over the API: the tenant's scopes plus the alerts scopes.
      const problem = scopeGrantProblem(refs.catalog, 'operator', s, []);
      if (problem) problems.push(`deployments[${i}].scope[${j}]: "${s}" ${problem}`);
    });
    const existing = db.deploymentByKey.get(`${tenant}/${app}`);
    if (d.id && existing && existing !== d.id.toLowerCase())
      problems.push(`deployments[${i}].id: the app is already deployed at this tenant as ${existing}`);
    const keyOfId = d.id ? db.deploymentKeyById.get(d.id.toLowerCase()) : undefined;
    if (keyOfId && keyOfId !== `${tenant}/${app}`) problems.push(`deployments[${i}].id: belongs to another deployment`);
    refs.claimClientId(d.client_id, `deployments[${i}]`, `deployment:${existing ?? d.id?.toLowerCase() ?? ''}`);
  });
}

/** Vanity domains' owners, served tenants and registrations. */
function checkVanityDomains({ f, db, problems, repeated }: Checks, tenantIds: Set<string>): void {
  repeated('vanity_domains', f.vanity_domains, (v) => normalizeDomain(v.domain), 'domain');
  f.vanity_domains.forEach((v, i) => {
    const owner = v.owner.id.toLowerCase();
    if (!tenantIds.has(owner))
      problems.push(`vanity_domains[${i}].owner.id: no tenant ${owner} in the file or the database`);
    const served = (v.tenants ?? [owner]).map((t) => t.toLowerCase());
    if (!served.includes(owner)) problems.push(`vanity_domains[${i}].tenants: must include the owner ${owner}`);
    served.forEach((t, j) => {
      if (!tenantIds.has(t))
        problems.push(`vanity_domains[${i}].tenants[${j}]: no tenant ${t} in the file or the database`);
    });
    const holder = db.domainOwner.get(normalizeDomain(v.domain));
    if (holder && holder !== owner) problems.push(`vanity_domains[${i}].domain: already registered by another tenant`);
  });
}
/** Keys of what the database already holds, for reference checks. */
async function loadDirectory(m: EntityManager) {
  const rows = async <T>(entity: new () => T, select: (keyof T)[]) =>
    m
      .getRepository(entity as new () => ObjectLiteral)
      .find({ select: Object.fromEntries(select.map((k) => [k, true])) as never }) as Promise<T[]>;
  const tenants = await rows(TenantEntity, ['id', 'customerId']);
  const developers = await rows(DeveloperEntity, ['id', 'email']);
  const apps = await rows(AppEntity, ['id', 'ownerType', 'ownerId', 'clientId']);
  const deployments = await rows(DeploymentEntity, ['id', 'tenantId', 'appId', 'clientId']);
  const providers = await rows(IdentityProviderEntity, ['id', 'tenantId']);
  const domains = await rows(VanityDomainEntity, ['domain', 'tenantId']);
  const clientIds = new Map<string, string>();
  for (const a of apps) clientIds.set(a.clientId, `app:${a.id}`);
  for (const d of deployments) if (d.clientId) clientIds.set(d.clientId, `deployment:${d.id}`);
  return {
    regions: new Set((await rows(RegionEntity, ['id'])).map((r) => r.id)),
    coreProviders: new Set((await rows(CoreIdentityProviderEntity, ['id'])).map((r) => r.id)),
    tenants: new Map(tenants.map((t) => [t.id, t])),
    tenantByCustomerId: new Map(tenants.map((t) => [t.customerId, t.id])),
    developers: new Set(developers.map((d) => d.id)),
    developerByEmail: new Map(developers.map((d) => [d.email, d.id])),
    appOwners: new Map(apps.map((a) => [a.id, { type: a.ownerType as string, id: a.ownerId }])),
    clientIds,
    deploymentByKey: new Map(deployments.map((d) => [`${d.tenantId}/${d.appId}`, d.id])),
    deploymentKeyById: new Map(deployments.map((d) => [d.id, `${d.tenantId}/${d.appId}`])),
    providerTenant: new Map(providers.map((p) => [p.id, p.tenantId])),
    constituencies: new Set((await rows(ConstituencyEntity, ['tenantId', 'id'])).map((c) => `${c.tenantId}/${c.id}`)),
    domainOwner: new Map(domains.map((d) => [d.domain, d.tenantId])),
  };
}
