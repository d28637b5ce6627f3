import { ApiProperty } from '@nestjs/swagger';
import type { AppEntity, DeploymentEntity } from '@edu/persistence';
import { settingsViewSchema, toSettingsView, type DeploymentSettingsView } from './deployment-settings';

export class AppSummaryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

/** Spec 2.4, plus `settings` (design §8). */
export class DeploymentView {
  @ApiProperty({ format: 'uuid' }) deployment_id: string;
  @ApiProperty({ format: 'uuid' }) app_id: string;
  @ApiProperty({ format: 'uuid' }) tenant_id: string;
  @ApiProperty({ type: [String] }) scope: string[];
  @ApiProperty({ type: AppSummaryView }) app: AppSummaryView;
  @ApiProperty(settingsViewSchema()) settings: DeploymentSettingsView;
}

export class DeploymentCredentialsView {
  @ApiProperty() client_id: string;
  @ApiProperty({ description: 'Shown only in this response; stored hashed' }) client_secret: string;
}

export function toDeploymentView(d: DeploymentEntity, app: AppEntity): DeploymentView {
  return {
    deployment_id: d.id,
    app_id: d.appId,
    tenant_id: d.tenantId,
    scope: [...d.scope],
    app: { id: app.id, name: app.name },
    settings: toSettingsView(d.settings),
  };
}
