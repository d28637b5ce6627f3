import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@edu/domain';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import { RequireJsonBody } from '@edu/http';
import { SubmitMessagesDto } from './dto/alert-message.dto';
import type { AlertMessageView } from './message.view';
import { MessagesService, type SubmittedMessage } from './messages.service';

@ApiTags('messages')
@Controller('v2/alerts')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Post('messages')
  @HttpCode(201)
  @RequireScopes('platform.admin')
  @UseGuards(RequireJsonBody)
  @ApiOperation({ summary: "Submit generated alert messages for a tenant (the alert generator's operator endpoint)" })
  @ApiBody({ type: SubmitMessagesDto })
  @ApiCreatedResponse({
    description: '{"messages": [{"message_id", "transaction_id", "deliveries"}]} in request order',
  })
  async submit(
    @CurrentPrincipal() who: Principal,
    @Body() body: SubmitMessagesDto,
  ): Promise<{ messages: SubmittedMessage[] }> {
    return { messages: await this.messages.submit(who, body) };
  }

  @Get('message/:id')
  @RequireScopes('alerts.messages.read')
  @ApiOperation({ summary: 'getMessage' })
  get(@CurrentPrincipal() who: Principal, @Param('id') id: string): Promise<AlertMessageView> {
    return this.messages.get(who, id);
  }
}
