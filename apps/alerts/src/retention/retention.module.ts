import { Module } from '@nestjs/common';
import { RetentionController } from './retention.controller';
import { RetentionService } from './retention.service';
import { TenantAdminAccess } from './tenant-admin-access';

@Module({
  controllers: [RetentionController],
  providers: [RetentionService, TenantAdminAccess],
})
export class RetentionModule {}
