import { randomUUID } from 'node:crypto';
import type { EntityManager, ObjectLiteral } from 'typeorm';
import { isUuid } from '@edu/domain';
import { IdentityProviderEntity, TenantUserEntity, UserEntity, type UserIdpIdentifier } from '@edu/persistence';
import { normalizeEmail } from '../common/ids';
import type { ProvisionFile, SectionName } from './provision-file';

/*
 * The `users` and `tenant_users` sections. Profiles are kept per tenant (see the users section of
 * apps/identity/src/README.md), so a `users` record is the profile the file gives the person at
 * each tenant the file's `tenant_users` records add them to; it never reaches a tenant the file
 * does not name, and a tenant sees only the identifiers at core providers and its own providers.
 */

export interface UserReferenceContext {
  tenantIds: ReadonlySet<string>;
  /** Owner tenant of every provider in the file or the database. */
  providerTenant: ReadonlyMap<string, string>;
  /** `tenant/constituency` keys in the file or the database. */
  constituencyKeys: ReadonlySet<string>;
  /** Why an identity provider id cannot be used, if it cannot. */
  providerProblem: (idpId: string) => string | undefined;
  /** Reports records of a section that repeat a key. */
  repeated: <T>(section: string, items: T[], key: (t: T) => string, field: string) => void;
}

export type Upsert = <E extends ObjectLiteral>(
  section: SectionName,
  entity: new () => E,
  where: Partial<E>,
  desired: Partial<E>,
) => Promise<E | null>;

const lowerIfUuid = (id: string) => (isUuid(id) ? id.toLowerCase() : id);
const recordKey = (tenantId: string, email: string) => `${tenantId.toLowerCase()}/${normalizeEmail(email)}`;

/** Every problem of the two sections, against the file and the database. */
export async function checkUserRecords(
  f: ProvisionFile,
  ctx: UserReferenceContext,
  m: EntityManager,
  problems: string[],
): Promise<void> {
  const persons = await m.getRepository(UserEntity).find({ select: { id: true, email: true } });
  const idByEmail = new Map(persons.map((p) => [p.email, p.id]));
  const emailById = new Map(persons.map((p) => [p.id, p.email]));
  const stored: { tenant_id: string; email: string }[] = await m.query(
    `SELECT tu.tenant_id, u.email FROM tenant_users tu JOIN users u ON u.id = tu.user_id`,
  );
  const storedRecords = new Set(stored.map((r) => recordKey(r.tenant_id, r.email)));

  const fileUsers = new Set(f.users.map((u) => normalizeEmail(u.email)));
  const tenantsOf = new Map<string, Set<string>>();
  for (const l of f.tenant_users) {
    const email = normalizeEmail(l.user_email);
    tenantsOf.set(email, (tenantsOf.get(email) ?? new Set()).add(l.tenant_id.toLowerCase()));
  }

  ctx.repeated('users', f.users, (u) => normalizeEmail(u.email), 'email');
  ctx.repeated(
    'users',
    f.users.filter((u) => u.id),
    (u) => (u.id as string).toLowerCase(),
    'id',
  );
  f.users.forEach((u, i) => {
    const email = normalizeEmail(u.email);
    const existing = idByEmail.get(email);
    if (u.id && existing && existing !== u.id.toLowerCase())
      problems.push(`users[${i}].id: the user with this e-mail address has id ${existing}`);
    const holder = u.id ? emailById.get(u.id.toLowerCase()) : undefined;
    if (holder && holder !== email) problems.push(`users[${i}].id: belongs to the user ${holder}`);
    const tenants = tenantsOf.get(email);
    if (!tenants)
      problems.push(
        `users[${i}].email: no tenant_users record in the file adds this user to a tenant (profiles are kept per tenant)`,
      );
    (u.idp_identifiers ?? []).forEach((ident, j) => {
      const problem = ctx.providerProblem(ident.idp_id);
      const owner = isUuid(ident.idp_id) ? ctx.providerTenant.get(ident.idp_id.toLowerCase()) : undefined;
      if (problem) problems.push(`users[${i}].idp_identifiers[${j}].idp_id: ${problem}`);
      else if (owner && tenants && !tenants.has(owner))
        problems.push(
          `users[${i}].idp_identifiers[${j}].idp_id: identity provider ${ident.idp_id} belongs to a tenant the file does not add this user to`,
        );
    });
  });

  ctx.repeated('tenant_users', f.tenant_users, (l) => recordKey(l.tenant_id, l.user_email), 'user_email');
  f.tenant_users.forEach((l, i) => {
    const tenant = l.tenant_id.toLowerCase();
    if (!ctx.tenantIds.has(tenant))
      problems.push(`tenant_users[${i}].tenant_id: no tenant ${tenant} in the file or the database`);
    if (!fileUsers.has(normalizeEmail(l.user_email)) && !storedRecords.has(recordKey(tenant, l.user_email))) {
      problems.push(
        `tenant_users[${i}].user_email: no users record for ${l.user_email} in the file (a tenant's new record of a user takes its profile from it)`,
      );
    }
    l.constituencies.forEach((c, j) => {
      if (!ctx.constituencyKeys.has(`${tenant}/${c}`))
        problems.push(`tenant_users[${i}].constituencies[${j}]: "${c}" is not a constituency of tenant ${tenant}`);
    });
  });
}

/**
 * Writes persons (id and e-mail address) and each tenant's record of them. A record the file
 * names without a `users` record (checked: it exists already) gets its constituencies only.
 */
export async function writeUserRecords(f: ProvisionFile, m: EntityManager, upsert: Upsert): Promise<void> {
  for (const u of f.users) {
    const email = normalizeEmail(u.email);
    const exists = await m.getRepository(UserEntity).exists({ where: { email } });
    await upsert('users', UserEntity, { email }, exists ? {} : { id: u.id?.toLowerCase() ?? randomUUID() });
  }
  const providers = await m.getRepository(IdentityProviderEntity).find({ select: { id: true, tenantId: true } });
  const providerTenant = new Map(providers.map((p) => [p.id, p.tenantId]));
  const profiles = new Map(f.users.map((u) => [normalizeEmail(u.email), u]));
  for (const l of f.tenant_users) {
    const email = normalizeEmail(l.user_email);
    const tenantId = l.tenant_id.toLowerCase();
    const person = await m.getRepository(UserEntity).findOneOrFail({ where: { email } });
    const key = { tenantId, userId: person.id };
    const desired: Partial<TenantUserEntity> = { constituencies: [...l.constituencies] };
    const u = profiles.get(email);
    if (u) {
      const previous = (await m.getRepository(TenantUserEntity).findOne({ where: key }))?.idpIdentifiers ?? [];
      const identifiers: UserIdpIdentifier[] = (u.idp_identifiers ?? [])
        .map((i) => ({ id: i.id, idp_id: lowerIfUuid(i.idp_id) }))
        .filter((i) => !isUuid(i.idp_id) || providerTenant.get(i.idp_id) === tenantId)
        .map((i) => ({
          id: (i.id ?? previous.find((p) => p.idp_id === i.idp_id)?.id ?? randomUUID()).toLowerCase(),
          idp_id: i.idp_id,
        }));
      Object.assign(desired, {
        name: u.name,
        nickname: u.nickname ?? u.name,
        picture: u.picture,
        idpIdentifiers: identifiers,
      });
    }
    await upsert('tenant_users', TenantUserEntity, key, desired);
  }
}
