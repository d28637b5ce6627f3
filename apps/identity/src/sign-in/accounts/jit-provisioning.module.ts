import { Module } from '@nestjs/common';
import { UsersModule } from '../../users/users.module';
import { JitProvisioner } from './jit-provisioner';

/** Just-in-time provisioning, on the users module's own code for adding a person to a tenant. */
@Module({ imports: [UsersModule], providers: [JitProvisioner], exports: [JitProvisioner] })
export class JitProvisioningModule {}
