import { Body, Controller, Headers, HttpCode, Post, Res, UseFilters } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@edu/auth';
import { OAuthErrorFilter } from './oauth-error.filter';
import { parseTokenRequest } from './token-request';
import { TokenService, type TokenResponse } from './token.service';

@ApiTags('oauth')
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
export class OAuthController {
  constructor(private readonly tokens: TokenService) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'OAuth 2.0 client credentials grant (RFC 6749 §4.4)' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOkResponse({ description: '{access_token, token_type, expires_in, scope}' })
  async token(
    @Headers('content-type') contentType: string | undefined,
    @Headers('authorization') authorization: string | undefined,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TokenResponse> {
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    return this.tokens.issue(parseTokenRequest(contentType, authorization, body));
  }
}
