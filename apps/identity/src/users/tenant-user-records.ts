import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ApiError, isUuid } from '@edu/domain';
import type { UserIdpIdentifier } from '@edu/persistence';
import { conflict, fieldError } from '../common/api-errors';
import type { ProviderRefs } from '../directory/provider-refs';
import type { IdpIdentifierDto } from './dto/user.dto';
import { PersonIds } from './person-ids';
import { TenantUserRepository, UserRepository, type LinkedUser } from '../directory/user.repository';

/** The only 409 of adding a person: this tenant has them already. Other tenants never show. */
export const ALREADY_AT_TENANT = 'This tenant already has a user with this e-mail address';

export interface NewTenantUser {
  constituencies: string[];
  name: string;
  nickname: string;
  picture: string;
  idpIdentifiers: UserIdpIdentifier[];
}

/**
 * A tenant's identifiers of a person from a request (ids assigned where missing). Only core
 * providers and the tenant's own providers are accepted; problems name the offending entry.
 */
export function tenantIdentifiers(given: IdpIdentifierDto[], refs: ProviderRefs): UserIdpIdentifier[] {
  const normalized = given.map((i) => ({
    id: (i.id ?? randomUUID()).toLowerCase(),
    idp_id: isUuid(i.idp_id) ? i.idp_id.toLowerCase() : i.idp_id,
  }));
  const unknown = refs.firstUnknown(normalized.map((i) => i.idp_id));
  if (unknown) throw fieldError('idp_identifiers', unknown);
  const seen = new Set<string>();
  normalized.forEach((i, index) => {
    if (seen.has(i.id)) throw fieldError('idp_identifiers', `[${index}] id ${i.id} is used twice`);
    seen.add(i.id);
  });
  return normalized;
}

/**
 * Adding a person to a tenant and removing them. Both answer the same whether or not other
 * tenants have the person: adding creates the tenant's own record from what the tenant gave
 * (the person's id is the only thing shared), removing touches only the tenant's record.
 */
@Injectable()
export class TenantUserRecords {
  constructor(
    private readonly users: UserRepository,
    private readonly links: TenantUserRepository,
    private readonly ids: PersonIds,
  ) {}

  /** 409 only when this tenant already has the person. */
  async add(tenantId: string, email: string, record: NewTenantUser, m: EntityManager): Promise<LinkedUser> {
    const userId = await this.users.ensurePerson(email, this.ids.forEmail(email), m);
    if (await this.links.exists(tenantId, userId, m)) throw conflict(ALREADY_AT_TENANT);
    const link = await this.links.insert({ tenantId, userId, ...record }, m);
    return Object.assign(link, { user: { id: userId, email } });
  }

  /** 404 unless this tenant has the person; the person is deleted once no tenant has them. */
  async remove(tenantId: string, email: string, what: string, m: EntityManager): Promise<void> {
    const link = await this.links.findByEmail(tenantId, email, m);
    if (!link) throw ApiError.notFound(what);
    await this.links.delete(tenantId, link.userId, m);
    await this.users.deleteOrphans([link.userId], m);
  }
}
