import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError, isUuid, type Principal } from '@edu/domain';
import { KeyEncryption } from '@edu/signing';
import { AccessPolicy } from '../common/access-policy';
import { conflict } from '../common/api-errors';
import { uuidOr404 } from '../common/ids';
import { mergePatch } from '../common/merge';
import { ConstituencyRepository } from '../directory/constituency.repository';
import { UserRepository } from '../directory/user.repository';
import { CreateIdentityProviderDto, type UpdateIdentityProviderDto } from './dto/identity-provider.dto';
import { IdentityProviderRepository } from '../directory/identity-provider.repository';
import {
  clientSecretColumn,
  identityProviderColumns,
  identityProviderInput,
  toCoreIdentityProviderView,
  toTenantIdentityProviderView,
  type IdentityProviderView,
  type TenantIdentityProviderView,
} from './identity-provider.view';
import { validateDto } from '@edu/http';

const TYPE_VARIANTS = { key: 'type', variants: { 'lti1.3': 'lti', oauth2: 'oauth2' } };

/**
 * Identity providers in use by the token's tenant (spec 2.2): the tenant's own providers, plus the
 * service-managed core providers that at least one of its constituencies allows.
 */
@Injectable()
export class IdentityProvidersService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly providers: IdentityProviderRepository,
    private readonly constituencies: ConstituencyRepository,
    private readonly users: UserRepository,
    private readonly policy: AccessPolicy,
    private readonly kek: KeyEncryption,
  ) {}

  async list(who: Principal, rawId?: string): Promise<IdentityProviderView[]> {
    const tenantId = this.policy.tenant(who, 'read');
    if (rawId !== undefined && isUuid(rawId)) {
      const own = await this.providers.find(tenantId, rawId.toLowerCase());
      if (!own) throw ApiError.notFound('Identity provider');
      return [toTenantIdentityProviderView(own)];
    }
    const coreInUse = (await this.constituencies.allowedProviderIds(tenantId)).filter((id) => !isUuid(id));
    if (rawId !== undefined) {
      const [core] = coreInUse.includes(rawId) ? await this.providers.coreByIds([rawId]) : [];
      if (!core) throw ApiError.notFound('Identity provider');
      return [toCoreIdentityProviderView(core)];
    }
    const core = await this.providers.coreByIds(coreInUse);
    const own = await this.providers.list(tenantId);
    return [...core.map(toCoreIdentityProviderView), ...own.map(toTenantIdentityProviderView)];
  }

  async create(who: Principal, dto: CreateIdentityProviderDto): Promise<TenantIdentityProviderView> {
    const tenantId = this.policy.tenant(who, 'write');
    const columns = { ...identityProviderColumns(dto), clientSecretEncrypted: clientSecretColumn(dto, null, this.kek) };
    const saved = await this.ds.transaction((m) => this.providers.save({ tenantId, ...columns }, m));
    return toTenantIdentityProviderView(saved);
  }

  async update(who: Principal, rawId: string, dto: UpdateIdentityProviderDto): Promise<TenantIdentityProviderView> {
    const tenantId = this.policy.tenant(who, 'write');
    const id = uuidOr404(rawId, 'Identity provider');
    return this.ds.transaction(async (m) => {
      const current = await this.providers.find(tenantId, id, m);
      if (!current) throw ApiError.notFound('Identity provider');
      const valid = await validateDto(
        CreateIdentityProviderDto,
        mergePatch(identityProviderInput(current), dto, TYPE_VARIANTS),
      );
      Object.assign(current, identityProviderColumns(valid), {
        clientSecretEncrypted: clientSecretColumn(valid, current.clientSecretEncrypted, this.kek),
      });
      return toTenantIdentityProviderView(await this.providers.save(current, m));
    });
  }

  /**
   * Deletes a tenant provider. Refused (409) while a constituency still allows it, so a sign-in
   * policy never silently loses a method; users' identifiers at the provider are removed with it.
   */
  async remove(who: Principal, rawId: string): Promise<void> {
    const tenantId = this.policy.tenant(who, 'write');
    const id = uuidOr404(rawId, 'Identity provider');
    await this.ds.transaction(async (m) => {
      const current = await this.providers.find(tenantId, id, m);
      if (!current) throw ApiError.notFound('Identity provider');
      const allowing = await this.constituencies.referencing(tenantId, id, m);
      if (allowing.length) throw conflict(`The identity provider is allowed by constituencies: ${allowing.join(', ')}`);
      await this.users.removeIdentifiersOf(tenantId, id, m);
      await this.providers.delete(tenantId, id, m);
    });
  }
}
