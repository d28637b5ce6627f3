import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { DeveloperView } from './developer.view';
import { DevelopersService } from './developers.service';
import { CreateDeveloperDto, UpdateDeveloperDto } from './dto/developer.dto';

const ID = { name: 'id', description: 'Developer id (uuid). Unknown and malformed ids answer 404.' };

/** Operator-only: the spec shows no developer endpoints; these let the operator onboard a partner over HTTP. */
@ApiTags('developers')
@Controller('developers')
export class DevelopersController {
  constructor(private readonly developers: DevelopersService) {}

  @Get()
  @RequireScopes('platform.admin')
  @ApiOperation({ summary: 'Every app developer' })
  @ApiOkResponse({ type: [DeveloperView] })
  list(@CurrentPrincipal() who: Principal): Promise<DeveloperView[]> {
    return this.developers.list(who);
  }

  @Get(':id')
  @RequireScopes('platform.admin')
  @ApiOperation({ summary: 'One developer, as a one-element array' })
  @ApiParam(ID)
  @ApiOkResponse({ type: [DeveloperView] })
  @ApiNotFoundResponse()
  get(@CurrentPrincipal() who: Principal, @Param('id') id: string): Promise<DeveloperView[]> {
    return this.developers.list(who, id);
  }

  @Post()
  @RequireScopes('platform.admin')
  @ApiOperation({ summary: 'Create an app developer (its apps: POST /apps with owner {type: developer, id})' })
  @ApiCreatedResponse({ type: DeveloperView })
  create(@CurrentPrincipal() who: Principal, @Body() dto: CreateDeveloperDto): Promise<DeveloperView> {
    return this.developers.create(who, dto);
  }

  @Patch(':id')
  @RequireScopes('platform.admin')
  @ApiOperation({ summary: 'Change a developer\u2019s name or e-mail address' })
  @ApiParam(ID)
  @ApiOkResponse({ type: DeveloperView })
  update(
    @CurrentPrincipal() who: Principal,
    @Param('id') id: string,
    @Body() dto: UpdateDeveloperDto,
  ): Promise<DeveloperView> {
    return this.developers.update(who, id, dto);
  }
}
