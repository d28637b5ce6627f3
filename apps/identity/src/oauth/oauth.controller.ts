import { Body, Controller, Headers, HttpCode, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@edu/auth';
import { ClientAuthentications } from '@edu/rate-limit';
import { OAuthErrorFilter } from '@edu/http';
import { ClientAuthenticationFailed, OAuthError } from '@edu/http';
import { parseTokenRequest, type TokenRequest } from './token-request';
import { TokenService, type AuthenticatedClient, type TokenResponse } from './token.service';

@ApiTags('oauth')
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
export class OAuthController {
  constructor(
    private readonly tokens: TokenService,
    private readonly authentications: ClientAuthentications,
  ) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'OAuth 2.0 client credentials grant (RFC 6749 §4.4)' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOkResponse({ description: '{access_token, token_type, expires_in, scope}' })
  async token(
    @Req() req: Request,
    @Headers('content-type') contentType: string | undefined,
    @Headers('authorization') authorization: string | undefined,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TokenResponse> {
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    let request: TokenRequest;
    let client: AuthenticatedClient;
    try {
      request = parseTokenRequest(contentType, authorization, body);
      client = await this.tokens.authenticate(request.credentials);
    } catch (err) {
      // Missing, malformed or wrong credentials alike: an attempt that did not authenticate.
      if (err instanceof OAuthError && err.code === 'invalid_client') {
        const registered = err instanceof ClientAuthenticationFailed ? err.registeredClientId : undefined;
        await this.authentications.failed(req, '/oauth/token', registered);
      }
      throw err;
    }
    await this.authentications.succeeded(req);
    return this.tokens.issue(client, request);
  }
}
