import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUuid } from '@edu/domain';
import { IdentityProviderEntity, type IdentityProviderLtiSettings } from '@edu/persistence';
import type { UpstreamProvider } from '../upstream/upstream-provider';

/** A tenant's `lti1.3` provider: the LMS (the platform) where people authenticate before a launch. */
export interface LtiProvider {
  id: string;
  tenantId: string;
  settings: IdentityProviderLtiSettings;
  /** The provider as account mapping and just-in-time provisioning see every upstream provider. */
  upstream: UpstreamProvider;
}

/** The `lti1.3` providers tenants stored over the Identity API, read by id (the id is in the URLs registered at the LMS). */
@Injectable()
export class LtiProviders {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async find(id: string): Promise<LtiProvider | undefined> {
    if (!isUuid(id)) return undefined;
    const entity = await this.ds
      .getRepository(IdentityProviderEntity)
      .findOne({ where: { id: id.toLowerCase(), type: 'lti1.3' } });
    return entity?.lti ? ltiProviderOf(entity, entity.lti) : undefined;
  }
}

function ltiProviderOf(e: IdentityProviderEntity, settings: IdentityProviderLtiSettings): LtiProvider {
  const upstream: UpstreamProvider = {
    id: e.id,
    kind: 'tenant',
    label: hostOf(settings.issuer),
    issuer: settings.issuer,
    clientId: settings.client_id,
    scope: 'openid',
    provisionJustInTime: e.provisionJustInTime,
  };
  return { id: e.id, tenantId: e.tenantId, settings, upstream };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'your school’s learning platform';
  }
}
