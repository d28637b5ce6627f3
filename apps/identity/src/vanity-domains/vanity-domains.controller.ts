import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { CreateVanityDomainDto, UpdateVanityDomainDto } from './dto/vanity-domain.dto';
import { VanityDomainView } from './vanity-domain.view';
import { VanityDomainsService } from './vanity-domains.service';

const DOMAIN = { name: 'domain', description: 'Fully-qualified domain name (case-insensitive)' };
const LICENCE = { description: 'licence_required: the tenant lacks the advanced licence (or the token lacks a scope)' };

@ApiTags('vanity-domains')
@Controller('vanity-domains')
export class VanityDomainsController {
  constructor(private readonly domains: VanityDomainsService) {}

  @Get()
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write')
  @ApiOperation({ summary: 'Vanity domains of the token\u2019s tenant (advanced licence)' })
  @ApiOkResponse({ type: [VanityDomainView] })
  @ApiForbiddenResponse(LICENCE)
  list(@CurrentPrincipal() who: Principal): Promise<VanityDomainView[]> {
    return this.domains.list(who);
  }

  @Get(':domain')
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write')
  @ApiOperation({ summary: 'One vanity domain, as a one-element array' })
  @ApiParam(DOMAIN)
  @ApiOkResponse({ type: [VanityDomainView] })
  @ApiForbiddenResponse(LICENCE)
  @ApiNotFoundResponse()
  get(@CurrentPrincipal() who: Principal, @Param('domain') domain: string): Promise<VanityDomainView[]> {
    return this.domains.list(who, domain);
  }

  @Post()
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Register a vanity domain (starts PENDING_DNS)' })
  @ApiCreatedResponse({ type: VanityDomainView })
  @ApiForbiddenResponse(LICENCE)
  create(@CurrentPrincipal() who: Principal, @Body() dto: CreateVanityDomainDto): Promise<VanityDomainView> {
    return this.domains.create(who, dto);
  }

  @Patch(':domain')
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Replace the brand configuration' })
  @ApiParam(DOMAIN)
  @ApiOkResponse({ type: VanityDomainView })
  @ApiForbiddenResponse(LICENCE)
  update(
    @CurrentPrincipal() who: Principal,
    @Param('domain') domain: string,
    @Body() dto: UpdateVanityDomainDto,
  ): Promise<VanityDomainView> {
    return this.domains.update(who, domain, dto);
  }

  @Delete(':domain')
  @HttpCode(204)
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Delete a vanity domain' })
  @ApiParam(DOMAIN)
  @ApiNoContentResponse()
  @ApiForbiddenResponse(LICENCE)
  remove(@CurrentPrincipal() who: Principal, @Param('domain') domain: string): Promise<void> {
    return this.domains.remove(who, domain);
  }
}
