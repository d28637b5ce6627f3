import { Module } from '@nestjs/common';
import { SharingModule as SharingReadModule } from '@edu/sharing';
import { AuditModule } from '../audit/audit.module';
import { DeploymentSharingRepository } from './deployment-sharing.repository';
import { SharingController } from './sharing.controller';
import { SharingService } from './sharing.service';

/** The sharing API of deployments; the audit trail records its changes. */
@Module({
  imports: [AuditModule, SharingReadModule],
  controllers: [SharingController],
  providers: [DeploymentSharingRepository, SharingService],
})
export class DeploymentSharingModule {}
