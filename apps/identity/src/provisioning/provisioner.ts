import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
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
import { generateClientId, generateClientSecret, hashClientSecret, verifyClientSecret } from '@edu/signing';
import { appSettings } from '../apps/app.view';
import { normalizeDomain, normalizeEmail } from '../common/ids';
import { mergeSettings } from '../deployments/deployment-settings';
import { scopeGrantProblem } from '../deployments/grantable-scopes';
import { dtoProblems } from '../common/validation/dto-validation';
import { identityProviderColumns } from '../identity-providers/identity-provider.view';
import { brandConfiguration } from '../vanity-domains/vanity-domain.view';
import { SECTIONS, type ProvisionFile, type SectionName } from './provision-file';
import { checkUserRecords, writeUserRecords } from './user-records';

/** A file that cannot be loaded; every problem names the record and field (`apps[2].oauth2.redirect_uris[0]: ...`). */
export class ProvisioningError extends Error {
  constructor(readonly problems: string[]) {
    super(`The provisioning file was not loaded (nothing was written):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ProvisioningError';
  }
}

export interface SectionCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface ProvisionReport {
  counts: Record<SectionName, SectionCounts>;
  /** Client secrets generated because the file gave none: shown once, here. */
  generatedSecrets: { record: string; client_id: string; client_secret: string }[];
  dryRun: boolean;
}

class DryRunRollback extends Error {}

/** Key-order-independent deep equality of JSON-like values. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const lowerIfUuid = (id: string) => (isUuid(id) ? id.toLowerCase() : id);

/**
 * Loads a provisioning file (tenants, developers, apps, identity providers, constituencies, users,
 * tenant-users, deployments, vanity domains) in one transaction. Every record is validated with the
 * API's own rules and every reference is checked before anything is written; objects are matched
 * by their ids or natural keys and written only when they differ, so loading the same file twice
 * changes nothing. Nothing is ever deleted.
 */
export class Provisioner {
  constructor(
    private readonly ds: DataSource,
    private readonly catalog: ScopeCatalog,
  ) {}

  async load(input: unknown, options: { dryRun?: boolean } = {}): Promise<ProvisionReport> {
    const file = await this.parse(input);
    let report: ProvisionReport | undefined;
    try {
      await this.ds.transaction(async (m) => {
        await this.checkReferences(file, m);
        report = await this.write(file, m, !!options.dryRun);
        if (options.dryRun) throw new DryRunRollback();
      });
    } catch (err) {
      if (!(err instanceof DryRunRollback)) throw err;
    }
    return report as ProvisionReport;
  }

  /** Shape and field rules of every record. */
  async parse(input: unknown): Promise<ProvisionFile> {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ProvisioningError(['(file): must be a JSON object with the sections ' + Object.keys(SECTIONS).join(', ')]);
    const problems: string[] = [];
    const file = {} as Record<string, unknown[]>;
    for (const key of Object.keys(input)) {
      if (!(key in SECTIONS)) problems.push(`${key}: unknown section (expected ${Object.keys(SECTIONS).join(', ')})`);
    }
    for (const [section, cls] of Object.entries(SECTIONS)) {
      const records = (input as Record<string, unknown>)[section] ?? [];
      if (!Array.isArray(records)) {
        problems.push(`${section}: must be an array`);
        continue;
      }
      file[section] = [];
      for (let i = 0; i < records.length; i++) {
        const { value, problems: found } = await dtoProblems(cls as new () => object, records[i], `${section}[${i}]`, 'bracket');
        for (const f of found) problems.push(`${f.field}: ${f.problems.join('; ')}`);
        file[section].push(value);
      }
    }
    if (problems.length) throw new ProvisioningError(problems);
    return file as unknown as ProvisionFile;
  }

  /** Every cross-reference, against the file and the database. */
  private async checkReferences(f: ProvisionFile, m: EntityManager): Promise<void> {
    const problems: string[] = [];
    const db = await loadDirectory(m);

    const repeated = <T>(section: string, items: T[], key: (t: T) => string, field: string) => {
      const first = new Map<string, number>();
      items.forEach((item, i) => {
        const k = key(item);
        if (first.has(k)) problems.push(`${section}[${i}].${field}: repeated in the file (also ${section}[${first.get(k)}])`);
        else first.set(k, i);
      });
    };

    // Tenants and developers
    repeated('tenants', f.tenants, (t) => t.id.toLowerCase(), 'id');
    repeated('tenants', f.tenants, (t) => String(t.customer_id), 'customer_id');
    const tenantIds = new Set([...db.tenants.keys(), ...f.tenants.map((t) => t.id.toLowerCase())]);
    f.tenants.forEach((t, i) => {
      if (!db.regions.has(t.region)) problems.push(`tenants[${i}].region: unknown region "${t.region}" (known: ${[...db.regions].join(', ')})`);
      const holder = db.tenantByCustomerId.get(t.customer_id);
      if (holder && holder !== t.id.toLowerCase()) problems.push(`tenants[${i}].customer_id: already used by tenant ${holder}`);
    });
    repeated('developers', f.developers, (d) => d.id.toLowerCase(), 'id');
    repeated('developers', f.developers, (d) => normalizeEmail(d.email), 'email');
    const developerIds = new Set([...db.developers, ...f.developers.map((d) => d.id.toLowerCase())]);
    f.developers.forEach((d, i) => {
      const holder = db.developerByEmail.get(normalizeEmail(d.email));
      if (holder && holder !== d.id.toLowerCase()) problems.push(`developers[${i}].email: already used by developer ${holder}`);
    });

    // Apps and client ids
    repeated('apps', f.apps, (a) => a.id.toLowerCase(), 'id');
    const appOwners = new Map<string, { type: string; id: string }>(db.appOwners);
    f.apps.forEach((a, i) => {
      const owner = { type: a.owner.type, id: a.owner.id.toLowerCase() };
      appOwners.set(a.id.toLowerCase(), owner);
      const known = owner.type === 'tenant' ? tenantIds.has(owner.id) : developerIds.has(owner.id);
      if (!known) problems.push(`apps[${i}].owner.id: no ${owner.type} ${owner.id} in the file or the database`);
    });
    const fileClientIds = new Map<string, string>();
    const claimClientId = (clientId: string | undefined, record: string, own: string) => {
      if (!clientId) return;
      const other = fileClientIds.get(clientId);
      if (other) problems.push(`${record}.client_id: repeated in the file (also ${other})`);
      fileClientIds.set(clientId, record);
      const holder = db.clientIds.get(clientId);
      if (holder && holder !== own) problems.push(`${record}.client_id: already used by another client`);
    };
    f.apps.forEach((a, i) => claimClientId(a.client_id, `apps[${i}]`, `app:${a.id.toLowerCase()}`));

    // Identity providers
    repeated('identity_providers', f.identity_providers, (p) => p.id.toLowerCase(), 'id');
    const providerTenant = new Map<string, string>(db.providerTenant);
    f.identity_providers.forEach((p, i) => {
      const tenant = p.tenant.toLowerCase();
      if (!tenantIds.has(tenant)) problems.push(`identity_providers[${i}].tenant: no tenant ${tenant} in the file or the database`);
      const current = db.providerTenant.get(p.id.toLowerCase());
      if (current && current !== tenant) problems.push(`identity_providers[${i}].id: belongs to another tenant`);
      // Files stay free of providers' secrets (the CLI has no key-encryption key); the API seals them.
      if (p.oauth2?.client_secret !== undefined) problems.push(`identity_providers[${i}].oauth2.client_secret: not accepted in a provisioning file; set it with PATCH /identity-providers/:id`);
      providerTenant.set(p.id.toLowerCase(), tenant);
    });
    const providerProblem = (idpId: string, tenant?: string): string | undefined => {
      if (!isUuid(idpId)) return db.coreProviders.has(idpId) ? undefined : `"${idpId}" is not a core identity provider (known: ${[...db.coreProviders].join(', ')})`;
      const owner = providerTenant.get(idpId.toLowerCase());
      if (!owner) return `no identity provider ${idpId} in the file or the database`;
      if (tenant && owner !== tenant) return `identity provider ${idpId} belongs to another tenant`;
      return undefined;
    };

    // Constituencies
    repeated('constituencies', f.constituencies, (c) => `${c.tenant_id.toLowerCase()}/${c.id}`, 'id');
    const constituencyKeys = new Set([...db.constituencies, ...f.constituencies.map((c) => `${c.tenant_id.toLowerCase()}/${c.id}`)]);
    f.constituencies.forEach((c, i) => {
      const tenant = c.tenant_id.toLowerCase();
      if (!tenantIds.has(tenant)) problems.push(`constituencies[${i}].tenant_id: no tenant ${tenant} in the file or the database`);
      c.allowed_identity_providers.forEach((idp, j) => {
        const p = providerProblem(idp, tenant);
        if (p) problems.push(`constituencies[${i}].allowed_identity_providers[${j}]: ${p}`);
      });
    });

    // Users and tenant-user records
    await checkUserRecords(f, { tenantIds, providerTenant, constituencyKeys, providerProblem, repeated }, m, problems);

    // Deployments
    repeated('deployments', f.deployments, (d) => `${d.tenant_id.toLowerCase()}/${d.app_id.toLowerCase()}`, 'app_id');
    repeated('deployments', f.deployments.filter((d) => d.id), (d) => (d.id as string).toLowerCase(), 'id');
    f.deployments.forEach((d, i) => {
      const tenant = d.tenant_id.toLowerCase();
      const app = d.app_id.toLowerCase();
      if (!tenantIds.has(tenant)) problems.push(`deployments[${i}].tenant_id: no tenant ${tenant} in the file or the database`);
      const owner = appOwners.get(app);
      if (!owner) problems.push(`deployments[${i}].app_id: no app ${app} in the file or the database`);
      else if (owner.type === 'tenant' && owner.id !== tenant) problems.push(`deployments[${i}].app_id: the app is owned by another tenant`);
      d.scope.forEach((s, j) => {
        // The operator's own rule over the API: the tenant's scopes plus the alerts scopes.
        const problem = scopeGrantProblem(this.catalog, 'operator', s, []);
        if (problem) problems.push(`deployments[${i}].scope[${j}]: "${s}" ${problem}`);
      });
      const existing = db.deploymentByKey.get(`${tenant}/${app}`);
      if (d.id && existing && existing !== d.id.toLowerCase()) problems.push(`deployments[${i}].id: the app is already deployed at this tenant as ${existing}`);
      const keyOfId = d.id ? db.deploymentKeyById.get(d.id.toLowerCase()) : undefined;
      if (keyOfId && keyOfId !== `${tenant}/${app}`) problems.push(`deployments[${i}].id: belongs to another deployment`);
      claimClientId(d.client_id, `deployments[${i}]`, `deployment:${existing ?? d.id?.toLowerCase() ?? ''}`);
    });

    // Vanity domains
    repeated('vanity_domains', f.vanity_domains, (v) => normalizeDomain(v.domain), 'domain');
    f.vanity_domains.forEach((v, i) => {
      const owner = v.owner.id.toLowerCase();
      if (!tenantIds.has(owner)) problems.push(`vanity_domains[${i}].owner.id: no tenant ${owner} in the file or the database`);
      const served = (v.tenants ?? [owner]).map((t) => t.toLowerCase());
      if (!served.includes(owner)) problems.push(`vanity_domains[${i}].tenants: must include the owner ${owner}`);
      served.forEach((t, j) => {
        if (!tenantIds.has(t)) problems.push(`vanity_domains[${i}].tenants[${j}]: no tenant ${t} in the file or the database`);
      });
      const holder = db.domainOwner.get(normalizeDomain(v.domain));
      if (holder && holder !== owner) problems.push(`vanity_domains[${i}].domain: already registered by another tenant`);
    });

    if (problems.length) throw new ProvisioningError(problems);
  }

  private async write(f: ProvisionFile, m: EntityManager, dryRun: boolean): Promise<ProvisionReport> {
    const counts = Object.fromEntries(Object.keys(SECTIONS).map((k) => [k, { created: 0, updated: 0, unchanged: 0 }])) as Record<SectionName, SectionCounts>;
    const generatedSecrets: ProvisionReport['generatedSecrets'] = [];

    /** Inserts or updates one row; `compare` lists the columns that decide "changed". */
    const upsert = async <E extends ObjectLiteral>(section: SectionName, entity: new () => E, where: Partial<E>, desired: Partial<E>): Promise<E | null> => {
      const repo = m.getRepository(entity);
      const existing = await repo.findOne({ where: where as never });
      if (!existing) {
        await repo.insert({ ...where, ...desired } as never);
        counts[section].created++;
        return null;
      }
      const current = Object.fromEntries(Object.keys(desired).map((k) => [k, (existing as Record<string, unknown>)[k]]));
      if (canonical(current) === canonical(desired)) counts[section].unchanged++;
      else {
        await repo.update(where as never, desired as never);
        counts[section].updated++;
      }
      return existing;
    };

    /** Keeps a stored hash that still matches the file's secret; generates one when neither exists. */
    const secretHash = (given: string | undefined, stored: string | null | undefined, record: string, clientId: string): string => {
      if (given) return stored && verifyClientSecret(given, stored) ? stored : hashClientSecret(given);
      if (stored) return stored;
      const secret = generateClientSecret();
      generatedSecrets.push({ record, client_id: clientId, client_secret: secret });
      return hashClientSecret(secret);
    };

    for (const d of f.developers) {
      await upsert('developers', DeveloperEntity, { id: d.id.toLowerCase() }, { name: d.name, email: normalizeEmail(d.email) });
    }
    for (const t of f.tenants) {
      await upsert('tenants', TenantEntity, { id: t.id.toLowerCase() }, {
        name: t.name,
        customerId: t.customer_id,
        govtId: t.govt_id,
        regionId: t.region,
        licences: [...t.licences],
        rootOrgSourcedId: t.root_org_sourced_id ?? null,
      });
    }
    for (const [i, a] of f.apps.entries()) {
      const id = a.id.toLowerCase();
      const existing = await m.getRepository(AppEntity).findOne({ where: { id } });
      const clientId = a.client_id ?? existing?.clientId ?? generateClientId('app');
      await upsert('apps', AppEntity, { id }, {
        name: a.name,
        ownerType: a.owner.type,
        ownerId: a.owner.id.toLowerCase(),
        authType: a.auth_type,
        ...appSettings(a),
        clientId,
        clientSecretHash: secretHash(a.client_secret, existing?.clientSecretHash, `apps[${i}]`, clientId),
      });
    }
    for (const p of f.identity_providers) {
      await upsert('identity_providers', IdentityProviderEntity, { id: p.id.toLowerCase() }, { tenantId: p.tenant.toLowerCase(), ...identityProviderColumns(p) });
    }
    for (const c of f.constituencies) {
      await upsert('constituencies', ConstituencyEntity, { tenantId: c.tenant_id.toLowerCase(), id: c.id }, {
        name: c.name,
        enableSelfServiceProvisioning: c.enable_self_service_provisioning,
        allowedIdentityProviders: c.allowed_identity_providers.map(lowerIfUuid),
      });
    }
    await writeUserRecords(f, m, upsert);
    for (const [i, d] of f.deployments.entries()) {
      const key = { tenantId: d.tenant_id.toLowerCase(), appId: d.app_id.toLowerCase() };
      const existing = await m.getRepository(DeploymentEntity).findOne({ where: key });
      const desired: Partial<DeploymentEntity> = { scope: [...d.scope] };
      if (d.settings) desired.settings = mergeSettings(existing?.settings, d.settings);
      if (d.client_id || d.client_secret) {
        const clientId = d.client_id ?? existing?.clientId ?? generateClientId('dep');
        desired.clientId = clientId;
        desired.clientSecretHash = secretHash(d.client_secret, existing?.clientSecretHash, `deployments[${i}]`, clientId);
      }
      if (existing) await upsert('deployments', DeploymentEntity, key, desired);
      else await upsert('deployments', DeploymentEntity, key, { id: d.id?.toLowerCase() ?? randomUUID(), settings: mergeSettings({}, d.settings), ...desired });
    }
    for (const v of f.vanity_domains) {
      const owner = v.owner.id.toLowerCase();
      const domain = normalizeDomain(v.domain);
      const desired = { tenantId: owner, tenants: (v.tenants ?? [owner]).map((t) => t.toLowerCase()), brandConfiguration: brandConfiguration(v.brand_configuration) };
      const exists = await m.getRepository(VanityDomainEntity).exists({ where: { domain } });
      await upsert('vanity_domains', VanityDomainEntity, { domain }, exists ? desired : { ...desired, status: 'PENDING_DNS' as const });
    }
    return { counts, generatedSecrets, dryRun };
  }
}

/** Keys of what the database already holds, for reference checks. */
async function loadDirectory(m: EntityManager) {
  const rows = async <T>(entity: new () => T, select: (keyof T)[]) =>
    m.getRepository(entity as new () => ObjectLiteral).find({ select: Object.fromEntries(select.map((k) => [k, true])) as never }) as Promise<T[]>;
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
