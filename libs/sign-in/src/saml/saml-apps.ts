import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppSamlSettings } from '@edu/persistence';

export interface SamlApp {
  id: string;
  name: string;
  clientId: string;
  saml: AppSamlSettings;
}

const SELECT = `SELECT a.id, a.name, a.client_id AS "clientId", a.saml FROM apps a`;

/** The `saml` apps a tenant's identity provider serves: those deployed at the tenant. */
@Injectable()
export class SamlApps {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The app deployed at the tenant whose `entity_id` is the request's Issuer. */
  async byEntityId(tenantId: string, entityId: string): Promise<SamlApp | null> {
    const rows: SamlApp[] = await this.ds.query(
      `${SELECT} JOIN tenant_app_deployments d ON d.app_id = a.id
       WHERE d.tenant_id = $1 AND a.auth_type = 'saml' AND a.saml->>'entity_id' = $2 ORDER BY a.created_at LIMIT 1`,
      [tenantId, entityId],
    );
    return rows[0] ?? null;
  }

  async byId(appId: string): Promise<SamlApp | null> {
    const rows: SamlApp[] = await this.ds.query(`${SELECT} WHERE a.id = $1 AND a.auth_type = 'saml'`, [appId]);
    return rows[0] ?? null;
  }
}
