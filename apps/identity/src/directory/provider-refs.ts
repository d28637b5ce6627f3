import type { EntityManager } from 'typeorm';
import { isUuid } from '@edu/domain';
import type { IdentityProviderRepository } from './identity-provider.repository';

/**
 * Which identity provider ids a tenant may refer to (constituencies' allowed providers, users'
 * identifiers): core provider names, and the uuids of the tenant's own providers.
 */
export class ProviderRefs {
  private constructor(
    readonly core: ReadonlySet<string>,
    readonly own: ReadonlySet<string>,
  ) {}

  static async load(repo: IdentityProviderRepository, tenantId: string, m?: EntityManager): Promise<ProviderRefs> {
    return new ProviderRefs(await repo.coreIds(m), await repo.idsOf(tenantId, m));
  }

  static of(core: Iterable<string>, own: Iterable<string>): ProviderRefs {
    return new ProviderRefs(new Set(core), new Set(own));
  }

  /** A provider id the tenant may see (core, or its own). */
  visible(id: string): boolean {
    return isUuid(id) ? this.own.has(id.toLowerCase()) : this.core.has(id);
  }

  /** `[i] problem` for the first id that is not a known core provider or one of the tenant's. */
  firstUnknown(ids: string[]): string | undefined {
    const i = ids.findIndex((id) => !this.visible(id));
    return i < 0
      ? undefined
      : `[${i}] "${ids[i]}" is neither a core identity provider nor one of this tenant's providers`;
  }
}
