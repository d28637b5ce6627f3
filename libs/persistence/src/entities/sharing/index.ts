import { AuditEventEntity } from './audit-event.entity';
import { DeploymentSharingEntity } from './deployment-sharing.entity';
import { SharedObjectEntity } from './shared-object.entity';
import { SharingScopeEntity } from './sharing-scope.entity';
import { SharingVersionEntity } from './sharing-version.entity';

export * from './audit-event.entity';
export * from './deployment-sharing.entity';
export * from './shared-object.entity';
export * from './sharing-scope.entity';
export * from './sharing-version.entity';

export const SHARING_ENTITIES = [
  DeploymentSharingEntity,
  SharingVersionEntity,
  AuditEventEntity,
  SharingScopeEntity,
  SharedObjectEntity,
];
