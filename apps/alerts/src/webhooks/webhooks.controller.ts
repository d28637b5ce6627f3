import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@edu/domain';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import { RequireJsonBody } from '@edu/http';
import { OptionalJsonBody } from '../optional-json-body.guard';
import {
  CreateWebhookDto,
  RotateSecretDto,
  UpdateWebhookDto,
  WebhookIdParam,
  type RotatedSecret,
  type WebhookActionResult,
  type WebhookView,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@Controller('v2/alerts/webhook')
@RequireScopes('alerts.webhooks.write')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({ summary: "getWebhook (collection): the calling app's webhooks" })
  list(@CurrentPrincipal() who: Principal): Promise<WebhookView[]> {
    return this.webhooks.list(who);
  }

  @Get(':id')
  @ApiOperation({ summary: 'getWebhook' })
  get(@CurrentPrincipal() who: Principal, @Param() { id }: WebhookIdParam): Promise<WebhookView> {
    return this.webhooks.get(who, id);
  }

  @Post()
  @HttpCode(200)
  @UseGuards(RequireJsonBody)
  @ApiOperation({ summary: 'newWebhook' })
  create(@CurrentPrincipal() who: Principal, @Body() dto: CreateWebhookDto): Promise<WebhookActionResult> {
    return this.webhooks.create(who, dto);
  }

  @Patch(':id')
  @UseGuards(RequireJsonBody)
  @ApiOperation({ summary: 'updateWebhook' })
  update(
    @CurrentPrincipal() who: Principal,
    @Param() { id }: WebhookIdParam,
    @Body() dto: UpdateWebhookDto,
  ): Promise<WebhookActionResult> {
    return this.webhooks.update(who, id, dto);
  }

  @Post(':id/secret/rotate')
  @HttpCode(200)
  @UseGuards(OptionalJsonBody)
  @ApiOperation({
    summary:
      "Rotate the webhook's Standard Webhooks secret: the new one is shown once; the old one keeps signing for the overlap",
  })
  rotateSecret(
    @CurrentPrincipal() who: Principal,
    @Param() { id }: WebhookIdParam,
    @Body() dto: RotateSecretDto,
  ): Promise<RotatedSecret> {
    return this.webhooks.rotateSecret(who, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'deleteWebhook' })
  remove(@CurrentPrincipal() who: Principal, @Param() { id }: WebhookIdParam): Promise<WebhookActionResult> {
    return this.webhooks.remove(who, id);
  }
}
