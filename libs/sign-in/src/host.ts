import type { EntityManager } from 'typeorm';
import type { IdentityProviderEntity, UserIdpIdentifier } from '@edu/persistence';

/*
 * What sign-in needs from the app that hosts it, as abstract classes (Nest injection tokens). The
 * host binds them to its own code in a global module (`SignInModule.forHost`), so the rules of its
 * tenants and people stay in one place and sign-in never imports the host.
 */

/** A tenant's own identity providers, as the host stores them. */
export abstract class TenantProviderDirectory {
  abstract list(tenantId: string): Promise<IdentityProviderEntity[]>;
}

/** A person added to a tenant at sign-in (just-in-time provisioning). */
export interface ProvisionedPerson {
  constituencies: string[];
  name: string;
  nickname: string;
  picture: string;
  idpIdentifiers: UserIdpIdentifier[];
}

/** The host's people: who may be provisioned at sign-in, and adding them, inside the caller's transaction. */
export abstract class PeopleProvisioning {
  /** The tenant's constituencies that allow self-service provisioning through the provider. */
  abstract selfServiceConstituencies(tenantId: string, providerId: string, m: EntityManager): Promise<string[]>;
  /** Adds the person to the tenant (by e-mail; the person is created when new); a conflict when already there. */
  abstract addToTenant(
    tenantId: string,
    email: string,
    person: ProvisionedPerson,
    m: EntityManager,
  ): Promise<{ userId: string }>;
}
