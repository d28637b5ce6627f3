import { Global, Module } from '@nestjs/common';
import { AlertsAccess } from './alerts-access';
import { TenantRegionsRepository } from './tenant-regions.repository';

@Global()
@Module({ providers: [AlertsAccess, TenantRegionsRepository], exports: [AlertsAccess] })
export class TenancyModule {}
