import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Principal } from '@edu/domain';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import { isOpenDelivery } from '@edu/persistence';
import { WebhookIdParam } from '../webhooks/dto/webhook.dto';
import { DeliveriesService, type DeliveryPage, type TestDeliveryResult } from './deliveries.service';
import type { AttemptView, DeliveryView } from './delivery.view';
import { ListDeliveriesQuery, WebhookDeliveryParams } from './dto/deliveries.dto';

/** The delivery log of the calling app's own webhooks (beyond the spec, `webhooks.write`). */
@ApiTags('deliveries')
@Controller('v2/alerts/webhook/:id')
@RequireScopes('alerts.webhooks.write')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get('deliveries')
  @ApiOperation({
    summary: "The webhook's deliveries at the token's tenant, newest first (filter by status, cursor paging)",
  })
  list(
    @CurrentPrincipal() who: Principal,
    @Param() { id }: WebhookIdParam,
    @Query() query: ListDeliveriesQuery,
  ): Promise<DeliveryPage> {
    return this.deliveries.list(who, id, query);
  }

  @Get('deliveries/:deliveryId')
  @ApiOperation({ summary: 'One delivery with every attempt' })
  get(
    @CurrentPrincipal() who: Principal,
    @Param() p: WebhookDeliveryParams,
  ): Promise<DeliveryView & { attempts: AttemptView[] }> {
    return this.deliveries.get(who, p.id, p.deliveryId);
  }

  @Post('deliveries/:deliveryId/redeliver')
  @HttpCode(201)
  @ApiOperation({ summary: "Deliver a finished delivery's message again (a new delivery with a new schedule)" })
  redeliver(@CurrentPrincipal() who: Principal, @Param() p: WebhookDeliveryParams): Promise<DeliveryView> {
    return this.deliveries.redeliver(who, p.id, p.deliveryId);
  }

  @Post('test')
  @ApiOperation({
    summary: 'Send a signed test delivery now; 200 with its result, or 202 when it has not finished in time',
  })
  async test(
    @CurrentPrincipal() who: Principal,
    @Param() { id }: WebhookIdParam,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TestDeliveryResult> {
    const result = await this.deliveries.test(who, id);
    res.status(isOpenDelivery(result.status) ? 202 : 200);
    return result;
  }
}
