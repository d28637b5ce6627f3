import { Module } from '@nestjs/common';
import { VanityDomainsController } from './vanity-domains.controller';
import { VanityDomainsService } from './vanity-domains.service';

@Module({ controllers: [VanityDomainsController], providers: [VanityDomainsService] })
export class VanityDomainsModule {}
