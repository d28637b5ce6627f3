import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { AppCredentialsView, AppView, CreatedAppView } from './app.view';
import { AppsService } from './apps.service';
import { CreateAppRequestDto, UpdateAppDto } from './dto/app.dto';

const ID = {
  name: 'id',
  description: 'App id (uuid). Unknown, malformed and other owners\u2019 ids all answer 404 (platform.admin: any app).',
};

@ApiTags('apps')
@Controller('apps')
export class AppsController {
  constructor(private readonly apps: AppsService) {}

  @Get()
  @RequireScopes(
    'id.tenant-core.readonly',
    'id.tenant-core.write',
    'id.apps.readonly',
    'id.apps.write',
    'platform.admin',
  )
  @ApiOperation({
    summary:
      'Apps owned by the tenant (tenant-core scopes) or developer (apps scopes) of the token; every app with platform.admin',
  })
  @ApiOkResponse({ type: [AppView] })
  list(@CurrentPrincipal() who: Principal): Promise<AppView[]> {
    return this.apps.list(who);
  }

  @Get(':id')
  @RequireScopes(
    'id.tenant-core.readonly',
    'id.tenant-core.write',
    'id.apps.readonly',
    'id.apps.write',
    'platform.admin',
  )
  @ApiOperation({ summary: 'One app, as a one-element array' })
  @ApiParam(ID)
  @ApiOkResponse({ type: [AppView] })
  @ApiNotFoundResponse()
  get(@CurrentPrincipal() who: Principal, @Param('id') id: string): Promise<AppView[]> {
    return this.apps.list(who, id);
  }

  @Post()
  @RequireScopes('id.tenant-core.write', 'id.apps.write', 'platform.admin')
  @ApiOperation({
    summary:
      'Create an app owned by the token\u2019s tenant or developer (platform.admin: by the owner named in the body); the client secret is shown only here',
  })
  @ApiCreatedResponse({ type: CreatedAppView })
  create(@CurrentPrincipal() who: Principal, @Body() dto: CreateAppRequestDto): Promise<CreatedAppView> {
    return this.apps.create(who, dto);
  }

  @Patch(':id')
  @RequireScopes('id.tenant-core.write', 'id.apps.write', 'platform.admin')
  @ApiOperation({ summary: 'Change an app (nested oauth2 / saml objects are replaced whole)' })
  @ApiParam(ID)
  @ApiOkResponse({ type: AppView })
  update(@CurrentPrincipal() who: Principal, @Param('id') id: string, @Body() dto: UpdateAppDto): Promise<AppView> {
    return this.apps.update(who, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('id.tenant-core.write', 'id.apps.write', 'platform.admin')
  @ApiOperation({ summary: 'Delete an app and all its deployments' })
  @ApiParam(ID)
  @ApiNoContentResponse()
  remove(@CurrentPrincipal() who: Principal, @Param('id') id: string): Promise<void> {
    return this.apps.remove(who, id);
  }

  @Post(':id/secret')
  @HttpCode(200)
  @RequireScopes('id.tenant-core.write', 'id.apps.write', 'platform.admin')
  @ApiOperation({ summary: 'Rotate the app\u2019s client secret; the new secret is shown only here' })
  @ApiParam(ID)
  @ApiOkResponse({ type: AppCredentialsView })
  rotateSecret(@CurrentPrincipal() who: Principal, @Param('id') id: string): Promise<AppCredentialsView> {
    return this.apps.rotateSecret(who, id);
  }
}
