import { Module } from '@nestjs/common';
import { JitProvisioner } from './jit-provisioner';

/** Just-in-time provisioning, on the host's own code for adding a person to a tenant (`PeopleProvisioning`). */
@Module({ providers: [JitProvisioner], exports: [JitProvisioner] })
export class JitProvisioningModule {}
