import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError, type Principal } from '@edu/domain';
import { generateClientId, generateClientSecret, hashClientSecret } from '@edu/signing';
import { AccessPolicy } from '../common/access-policy';
import { uuidOr404 } from '../common/ids';
import { mergePatch } from '../common/merge';
import { validateDto } from '../common/validation/dto-validation';
import { AppRepository } from './app.repository';
import { appInput, appSettings, toAppView, type AppCredentialsView, type AppView, type CreatedAppView } from './app.view';
import { CreateAppDto, type UpdateAppDto } from './dto/app.dto';

const AUTH_VARIANTS = { key: 'auth_type', variants: { oauth2: 'oauth2', saml: 'saml' } };

/** Apps (spec 2.1) owned by the token's tenant or developer. */
@Injectable()
export class AppsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly apps: AppRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async list(who: Principal, rawId?: string): Promise<AppView[]> {
    const owner = this.policy.appOwner(who, 'read');
    if (rawId === undefined) return (await this.apps.listByOwner(owner)).map(toAppView);
    const app = await this.apps.findByOwner(owner, uuidOr404(rawId, 'App'));
    if (!app) throw ApiError.notFound('App');
    return [toAppView(app)];
  }

  async create(who: Principal, dto: CreateAppDto): Promise<CreatedAppView> {
    const owner = this.policy.appOwner(who, 'write');
    const clientId = generateClientId('app');
    const clientSecret = generateClientSecret();
    const saved = await this.ds.transaction((m) =>
      this.apps.save(
        { name: dto.name, ownerType: owner.type, ownerId: owner.id, authType: dto.auth_type, ...appSettings(dto), clientId, clientSecretHash: hashClientSecret(clientSecret) },
        m,
      ),
    );
    return { ...toAppView(saved), client_id: clientId, client_secret: clientSecret };
  }

  async update(who: Principal, rawId: string, dto: UpdateAppDto): Promise<AppView> {
    const owner = this.policy.appOwner(who, 'write');
    const id = uuidOr404(rawId, 'App');
    return this.ds.transaction(async (m) => {
      const app = await this.apps.findByOwner(owner, id, m);
      if (!app) throw ApiError.notFound('App');
      const valid = await validateDto(CreateAppDto, mergePatch(appInput(app), dto, AUTH_VARIANTS));
      Object.assign(app, { name: valid.name, authType: valid.auth_type, ...appSettings(valid) });
      return toAppView(await this.apps.save(app, m));
    });
  }

  /** Deletes the app and, with it, every deployment of it. */
  async remove(who: Principal, rawId: string): Promise<void> {
    const owner = this.policy.appOwner(who, 'write');
    const id = uuidOr404(rawId, 'App');
    await this.ds.transaction(async (m) => {
      const app = await this.apps.findByOwner(owner, id, m);
      if (!app) throw ApiError.notFound('App');
      await this.apps.delete(app.id, m);
    });
  }

  /** Replaces the app's client secret; the old one stops working at once. */
  async rotateSecret(who: Principal, rawId: string): Promise<AppCredentialsView> {
    const owner = this.policy.appOwner(who, 'write');
    const id = uuidOr404(rawId, 'App');
    const clientSecret = generateClientSecret();
    return this.ds.transaction(async (m) => {
      const app = await this.apps.findByOwner(owner, id, m);
      if (!app) throw ApiError.notFound('App');
      app.clientSecretHash = hashClientSecret(clientSecret);
      await this.apps.save(app, m);
      return { client_id: app.clientId, client_secret: clientSecret };
    });
  }
}
