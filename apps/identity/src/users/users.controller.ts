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
import { CreateUserDto, UpdateUserDto } from './dto/user.dto';
import { UserView } from './user.view';
import { UsersService } from './users.service';

const EMAIL = {
  name: 'email',
  description: 'E-mail address (case-insensitive) of a user linked to the token\u2019s tenant',
};

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write')
  @ApiOperation({ summary: 'Users linked to the token\u2019s tenant' })
  @ApiOkResponse({ type: [UserView] })
  list(@CurrentPrincipal() who: Principal): Promise<UserView[]> {
    return this.users.list(who);
  }

  @Get(':email')
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write')
  @ApiOperation({ summary: 'One user, as a one-element array' })
  @ApiParam(EMAIL)
  @ApiOkResponse({ type: [UserView] })
  @ApiNotFoundResponse()
  get(@CurrentPrincipal() who: Principal, @Param('email') email: string): Promise<UserView[]> {
    return this.users.list(who, email);
  }

  @Post()
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({
    summary:
      'Add a person to the token\u2019s tenant with the tenant\u2019s own profile (409 only when this tenant already has them)',
  })
  @ApiCreatedResponse({ type: UserView })
  create(@CurrentPrincipal() who: Principal, @Body() dto: CreateUserDto): Promise<UserView> {
    return this.users.create(who, dto);
  }

  @Patch(':email')
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({
    summary: 'Change this tenant\u2019s profile and identifiers of a user (other tenants\u2019 records are untouched)',
  })
  @ApiParam(EMAIL)
  @ApiOkResponse({ type: UserView })
  update(
    @CurrentPrincipal() who: Principal,
    @Param('email') email: string,
    @Body() dto: UpdateUserDto,
  ): Promise<UserView> {
    return this.users.update(who, email, dto);
  }

  @Delete(':email')
  @HttpCode(204)
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Remove the user from the token\u2019s tenant (deleted when no tenant is left)' })
  @ApiParam(EMAIL)
  @ApiNoContentResponse()
  remove(@CurrentPrincipal() who: Principal, @Param('email') email: string): Promise<void> {
    return this.users.remove(who, email);
  }
}
