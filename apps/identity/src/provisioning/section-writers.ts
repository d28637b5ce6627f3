import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { EntityManager, ObjectLiteral } from 'typeorm';
import { isUuid } from '@edu/domain';
import {
  AppEntity,
  ConstituencyEntity,
  DeploymentEntity,
  DeveloperEntity,
  IdentityProviderEntity,
  TenantEntity,
  VanityDomainEntity,
} from '@edu/persistence';
import { generateClientId, generateClientSecret, hashClientSecret, verifyClientSecret } from '@edu/signing';
import { appSettings } from '../apps/app.view';
import { normalizeDomain, normalizeEmail } from '../common/ids';
import { mergeSettings } from '../deployments/deployment-settings';
import { identityProviderColumns } from '../identity-providers/identity-provider.view';
import { brandConfiguration } from '../vanity-domains/vanity-domain.view';
import { SECTIONS, type ProvisionFile, type SectionName } from './provision-file';
import { writeUserRecords, type Upsert } from './user-records';

/*
 * Writing a checked provisioning file, section by section, in dependency order. Rows are matched
 * by their ids or natural keys and written only when a column the file sets differs.
 */

export interface SectionCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** Client secrets generated because the file gave none: shown once, in the report. */
export type GeneratedSecret = { record: string; client_id: string; client_secret: string };

/** Keeps a stored hash that still matches the file's secret; generates one when neither exists. */
type SecretHash = (
  given: string | undefined,
  stored: string | null | undefined,
  record: string,
  clientId: string,
) => string;

interface Writer {
  f: ProvisionFile;
  m: EntityManager;
  upsert: Upsert;
  secretHash: SecretHash;
}

/** Writes every section; returns what changed per section and the secrets it generated. */
export async function writeSections(
  f: ProvisionFile,
  m: EntityManager,
): Promise<{ counts: Record<SectionName, SectionCounts>; generatedSecrets: GeneratedSecret[] }> {
  const counts = Object.fromEntries(
    Object.keys(SECTIONS).map((k) => [k, { created: 0, updated: 0, unchanged: 0 }]),
  ) as Record<SectionName, SectionCounts>;
  const generatedSecrets: GeneratedSecret[] = [];
  const w: Writer = { f, m, upsert: upserter(m, counts), secretHash: secretHasher(generatedSecrets) };
  await writeDevelopers(w);
  await writeTenants(w);
  await writeApps(w);
  await writeIdentityProviders(w);
  await writeConstituencies(w);
  await writeUserRecords(f, m, w.upsert);
  await writeDeployments(w);
  await writeVanityDomains(w);
  return { counts, generatedSecrets };
}

/** The JSON the columns hold: key order, undefined keys and class prototypes do not count. */
const asStored = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

/** Inserts or updates one row, counting it; the columns of `desired` decide "changed". */
function upserter(m: EntityManager, counts: Record<SectionName, SectionCounts>): Upsert {
  return async <E extends ObjectLiteral>(
    section: SectionName,
    entity: new () => E,
    where: Partial<E>,
    desired: Partial<E>,
  ): Promise<E | null> => {
    const repo = m.getRepository(entity);
    const existing = await repo.findOne({ where: where as never });
    if (!existing) {
      await repo.insert({ ...where, ...desired } as never);
      counts[section].created++;
      return null;
    }
    const current = Object.fromEntries(Object.keys(desired).map((k) => [k, (existing as Record<string, unknown>)[k]]));
    if (isDeepStrictEqual(asStored(current), asStored(desired))) counts[section].unchanged++;
    else {
      await repo.update(where as never, desired as never);
      counts[section].updated++;
    }
    return existing;
  };
}

function secretHasher(generatedSecrets: GeneratedSecret[]): SecretHash {
  return (given, stored, record, clientId) => {
    if (given) return stored && verifyClientSecret(given, stored) ? stored : hashClientSecret(given);
    if (stored) return stored;
    const secret = generateClientSecret();
    generatedSecrets.push({ record, client_id: clientId, client_secret: secret });
    return hashClientSecret(secret);
  };
}

const lowerIfUuid = (id: string) => (isUuid(id) ? id.toLowerCase() : id);

async function writeDevelopers({ f, upsert }: Writer): Promise<void> {
  for (const d of f.developers) {
    await upsert(
      'developers',
      DeveloperEntity,
      { id: d.id.toLowerCase() },
      { name: d.name, email: normalizeEmail(d.email) },
    );
  }
}

async function writeTenants({ f, upsert }: Writer): Promise<void> {
  for (const t of f.tenants) {
    await upsert(
      'tenants',
      TenantEntity,
      { id: t.id.toLowerCase() },
      {
        name: t.name,
        customerId: t.customer_id,
        govtId: t.govt_id,
        regionId: t.region,
        licences: [...t.licences],
        rootOrgSourcedId: t.root_org_sourced_id ?? null,
      },
    );
  }
}

/** Apps keep their client id and secret hash unless the file gives new ones. */
async function writeApps({ f, m, upsert, secretHash }: Writer): Promise<void> {
  for (const [i, a] of f.apps.entries()) {
    const id = a.id.toLowerCase();
    const existing = await m.getRepository(AppEntity).findOne({ where: { id } });
    const clientId = a.client_id ?? existing?.clientId ?? generateClientId('app');
    await upsert(
      'apps',
      AppEntity,
      { id },
      {
        name: a.name,
        ownerType: a.owner.type,
        ownerId: a.owner.id.toLowerCase(),
        authType: a.auth_type,
        ...appSettings(a),
        clientId,
        clientSecretHash: secretHash(a.client_secret, existing?.clientSecretHash, `apps[${i}]`, clientId),
      },
    );
  }
}

async function writeIdentityProviders({ f, upsert }: Writer): Promise<void> {
  for (const p of f.identity_providers) {
    await upsert(
      'identity_providers',
      IdentityProviderEntity,
      { id: p.id.toLowerCase() },
      { tenantId: p.tenant.toLowerCase(), ...identityProviderColumns(p) },
    );
  }
}

async function writeConstituencies({ f, upsert }: Writer): Promise<void> {
  for (const c of f.constituencies) {
    await upsert(
      'constituencies',
      ConstituencyEntity,
      { tenantId: c.tenant_id.toLowerCase(), id: c.id },
      {
        name: c.name,
        enableSelfServiceProvisioning: c.enable_self_service_provisioning,
        allowedIdentityProviders: c.allowed_identity_providers.map(lowerIfUuid),
      },
    );
  }
}

/** Deployments merge the file's settings into the stored ones; a client of their own only when the file asks for one. */
async function writeDeployments({ f, m, upsert, secretHash }: Writer): Promise<void> {
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
    else
      await upsert('deployments', DeploymentEntity, key, {
        id: d.id?.toLowerCase() ?? randomUUID(),
        settings: mergeSettings({}, d.settings),
        ...desired,
      });
  }
}

/** A new vanity domain waits for its DNS check; an existing one keeps its status. */
async function writeVanityDomains({ f, m, upsert }: Writer): Promise<void> {
  for (const v of f.vanity_domains) {
    const owner = v.owner.id.toLowerCase();
    const domain = normalizeDomain(v.domain);
    const desired = {
      tenantId: owner,
      tenants: (v.tenants ?? [owner]).map((t) => t.toLowerCase()),
      brandConfiguration: brandConfiguration(v.brand_configuration),
    };
    const exists = await m.getRepository(VanityDomainEntity).exists({ where: { domain } });
    await upsert(
      'vanity_domains',
      VanityDomainEntity,
      { domain },
      exists ? desired : { ...desired, status: 'PENDING_DNS' as const },
    );
  }
}
