import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, type Principal } from '@edu/domain';
import type { AppEntity } from '@edu/persistence';
import { generateClientId, generateClientSecret, hashClientSecret } from '@edu/signing';
import { AccessPolicy, type AppAccess, type OwnerRef } from '../common/access-policy';
import { fieldError } from '../common/api-errors';
import { uuidOr404 } from '../common/ids';
import { mergePatch } from '../common/merge';
import { DeveloperRepository } from '../directory/developer.repository';
import { TenantRepository } from '../directory/tenant.repository';
import { AppRepository } from '../directory/app.repository';
import {
  appInput,
  appSettings,
  toAppView,
  type AppCredentialsView,
  type AppView,
  type CreatedAppView,
} from './app.view';
import { validateDto } from '@edu/http';
import { CreateAppDto, type AppOwnerDto, type CreateAppRequestDto, type UpdateAppDto } from './dto/app.dto';

const AUTH_VARIANTS = { key: 'auth_type', variants: { oauth2: 'oauth2', saml: 'saml' } };

/**
 * Apps (spec 2.1) owned by the token's tenant or developer; the operator (platform.admin) sees
 * and changes every app and creates apps for a named owner.
 */
@Injectable()
export class AppsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly apps: AppRepository,
    private readonly tenants: TenantRepository,
    private readonly developers: DeveloperRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async list(who: Principal, rawId?: string): Promise<AppView[]> {
    const access = this.policy.apps(who, 'read');
    if (rawId === undefined) {
      const apps = access.by === 'operator' ? await this.apps.listAll() : await this.apps.listByOwner(access.owner);
      return apps.map(toAppView);
    }
    return [toAppView(await this.found(access, rawId))];
  }

  async create(who: Principal, dto: CreateAppRequestDto): Promise<CreatedAppView> {
    const access = this.policy.apps(who, 'write');
    const clientId = generateClientId('app');
    const clientSecret = generateClientSecret();
    const saved = await this.ds.transaction(async (m) => {
      const owner = await this.ownerOfNewApp(access, dto.owner, m);
      return this.apps.save(
        {
          name: dto.name,
          ownerType: owner.type,
          ownerId: owner.id,
          authType: dto.auth_type,
          ...appSettings(dto),
          clientId,
          clientSecretHash: hashClientSecret(clientSecret),
        },
        m,
      );
    });
    return { ...toAppView(saved), client_id: clientId, client_secret: clientSecret };
  }

  async update(who: Principal, rawId: string, dto: UpdateAppDto): Promise<AppView> {
    const access = this.policy.apps(who, 'write');
    return this.ds.transaction(async (m) => {
      const app = await this.found(access, rawId, m);
      const valid = await validateDto(CreateAppDto, mergePatch(appInput(app), dto, AUTH_VARIANTS));
      Object.assign(app, { name: valid.name, authType: valid.auth_type, ...appSettings(valid) });
      return toAppView(await this.apps.save(app, m));
    });
  }

  /** Deletes the app and, with it, every deployment of it. */
  async remove(who: Principal, rawId: string): Promise<void> {
    const access = this.policy.apps(who, 'write');
    await this.ds.transaction(async (m) => {
      const app = await this.found(access, rawId, m);
      await this.apps.delete(app.id, m);
    });
  }

  /** Replaces the app's client secret; the old one stops working at once. */
  async rotateSecret(who: Principal, rawId: string): Promise<AppCredentialsView> {
    const access = this.policy.apps(who, 'write');
    const clientSecret = generateClientSecret();
    return this.ds.transaction(async (m) => {
      const app = await this.found(access, rawId, m);
      app.clientSecretHash = hashClientSecret(clientSecret);
      await this.apps.save(app, m);
      return { client_id: app.clientId, client_secret: clientSecret };
    });
  }

  /** An app the caller may see: its own, or any for the operator. Others' ids answer 404 like unknown ones. */
  private async found(access: AppAccess, rawId: string, m?: EntityManager): Promise<AppEntity> {
    const id = uuidOr404(rawId, 'App');
    const app =
      access.by === 'operator' ? await this.apps.find(id, m) : await this.apps.findByOwner(access.owner, id, m);
    if (!app) throw ApiError.notFound('App');
    return app;
  }

  /** The token's tenant or developer; the operator must name an existing owner instead. */
  private async ownerOfNewApp(access: AppAccess, named: AppOwnerDto | undefined, m: EntityManager): Promise<OwnerRef> {
    if (access.by === 'owner') {
      if (named !== undefined)
        throw fieldError(
          'owner',
          'property owner should not exist (the owner is the token\u2019s tenant or developer)',
        );
      return access.owner;
    }
    if (named === undefined)
      throw fieldError('owner', 'is required with platform.admin: {"type": "tenant" or "developer", "id": uuid}');
    const owner: OwnerRef = { type: named.type, id: named.id.toLowerCase() };
    const exists =
      owner.type === 'tenant' ? await this.tenants.exists(owner.id, m) : await this.developers.exists(owner.id, m);
    if (!exists) throw fieldError('owner.id', `no ${owner.type} with this id`);
    return owner;
  }
}
