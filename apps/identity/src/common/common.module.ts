import { Global, Module } from '@nestjs/common';
import { AccessPolicy } from './access-policy';

@Global()
@Module({ providers: [AccessPolicy], exports: [AccessPolicy] })
export class IdentityCommonModule {}
