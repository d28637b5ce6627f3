import { Module } from '@nestjs/common';
import { AuditEventRepository } from './audit-event.repository';
import { AuditEventsController } from './audit-events.controller';
import { AuditEventsService } from './audit-events.service';
import { AuditLogRetention } from './audit-log-retention';

/** The audit trail: written by the features that change what apps may see, read by tenants. */
@Module({
  controllers: [AuditEventsController],
  providers: [AuditEventRepository, AuditEventsService, AuditLogRetention],
  exports: [AuditEventRepository],
})
export class AuditModule {}
