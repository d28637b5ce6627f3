import { Body, Controller, Delete, Get, Param, Patch, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@edu/domain';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import { RequireJsonBody } from '@edu/http';
import {
  TenantMessageParams,
  TenantParam,
  UpdateDeliverySettingsDto,
  type DeliverySettingsView,
  type ExpungedView,
} from './dto/retention.dto';
import { RetentionService } from './retention.service';

/** A tenant's delivery settings and payload expunge: the operator, or the school's admins for their own tenant. */
@ApiTags('retention')
@Controller('v2/alerts/tenants/:tenant_id')
@RequireScopes('platform.admin', 'id.tenant-core.write')
export class RetentionController {
  constructor(private readonly retention: RetentionService) {}

  @Get('settings')
  @ApiOperation({ summary: "The tenant's delivery settings (payload retention)" })
  get(@CurrentPrincipal() who: Principal, @Param() p: TenantParam): Promise<DeliverySettingsView> {
    return this.retention.get(who, p.tenant_id);
  }

  @Patch('settings')
  @UseGuards(RequireJsonBody)
  @ApiOperation({ summary: 'Set how many days payloads of alert messages and event deliveries are kept' })
  update(
    @CurrentPrincipal() who: Principal,
    @Param() p: TenantParam,
    @Body() dto: UpdateDeliverySettingsDto,
  ): Promise<DeliverySettingsView> {
    return this.retention.update(who, p.tenant_id, dto.delivery_payload_retention_days);
  }

  @Delete('messages/:message_id/payload')
  @ApiOperation({ summary: "Purge one message's payload now (its metadata and delivery log stay)" })
  expunge(@CurrentPrincipal() who: Principal, @Param() p: TenantMessageParams): Promise<ExpungedView> {
    return this.retention.expunge(who, p.tenant_id, p.message_id);
  }
}
