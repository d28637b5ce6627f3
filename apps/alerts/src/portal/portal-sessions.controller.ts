import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiError, isUuid, type Principal } from '@edu/domain';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import { AlertsEnv, alertsPublicBaseUrl } from '../config/alerts.env';
import { OptionalJsonBody } from '../optional-json-body.guard';
import { AlertsAccess } from '../tenancy/alerts-access';
import { CreatePortalSessionDto, PORTAL_SESSION_SECONDS, type PortalSessionView } from './dto/portal.dto';
import { PortalSessions } from './portal-sessions';

/** The delivery portal's links, made by the app's own API call (as Svix's app portal). */
@ApiTags('portal')
@Controller('v2/alerts/portal-sessions')
@RequireScopes('alerts.webhooks.write')
export class PortalSessionsController {
  constructor(
    private readonly sessions: PortalSessions,
    private readonly access: AlertsAccess,
    private readonly env: AlertsEnv,
  ) {}

  @Post()
  @HttpCode(201)
  @UseGuards(OptionalJsonBody)
  @ApiOperation({
    summary:
      "A short-lived signed link to the delivery portal: the app's webhooks and their deliveries at the token's tenant (open it once, in a browser)",
  })
  async create(@CurrentPrincipal() who: Principal, @Body() dto: CreatePortalSessionDto): Promise<PortalSessionView> {
    const tenantId = await this.access.partnerTenant(who);
    if (!isUuid(who.appId)) throw ApiError.notFound('App');
    const seconds = dto.expires_in ?? PORTAL_SESSION_SECONDS.default;
    const { token, expiresAt } = await this.sessions.create(tenantId, who.appId, seconds);
    return {
      url: `${alertsPublicBaseUrl(this.env)}/v2/alerts/portal/open?token=${token}`,
      expires_at: expiresAt.toISOString(),
    };
  }
}
