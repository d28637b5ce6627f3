import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface ReceivingDeployment {
  id: string;
  app_id: string;
}

/** The SQL alerts' data sharing needs: which deployments receive a tenant's alerts, whom a stored message names. */
@Injectable()
export class AlertSharingRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The tenant's deployments whose app gets its alert deliveries: an alerts scope and an alerts webhook. */
  receivingDeployments(tenantId: string, alertsScopes: string[]): Promise<ReceivingDeployment[]> {
    return this.ds.query(
      `SELECT d.id, d.app_id FROM tenant_app_deployments d
        WHERE d.tenant_id = $1 AND d.scope && $2::text[] AND EXISTS (SELECT 1 FROM webhooks w WHERE w.app_id = d.app_id AND w.kind = 'alerts')`,
      [tenantId, alertsScopes],
    );
  }

  /** The id of the app's deployment at the tenant; undefined when it is not deployed there. */
  async deploymentOf(tenantId: string, appId: string): Promise<string | undefined> {
    const rows: { id: string }[] = await this.ds.query(
      `SELECT id FROM tenant_app_deployments WHERE tenant_id = $1 AND app_id = $2`,
      [tenantId, appId],
    );
    return rows[0]?.id;
  }

  /**
   * The roster sourcedIds a stored message of the tenant names (`peopleNamed`), picked out by
   * PostgreSQL so a message of several MB does not travel for it; empty for an unknown message.
   */
  async peopleOf(tenantId: string, messageId: string): Promise<string[]> {
    const rows: { people: string[] }[] = await this.ds.query(
      `SELECT ARRAY(SELECT COALESCE(m.recipient->>'ext_id', '')
                    UNION SELECT COALESCE(a->'entity'->>'ext_id', '')
                      FROM json_array_elements(m.alerts) AS g, json_array_elements(g->'alerts') AS a) AS people
         FROM alert_messages m WHERE m.id = $1 AND m.tenant_id = $2`,
      [messageId, tenantId],
    );
    return rows[0]?.people ?? [];
  }
}
