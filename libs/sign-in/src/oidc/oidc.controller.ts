import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@edu/auth';
import { OAuthErrorFilter } from '@edu/http';
import { OidcProviderHost } from './oidc-provider.host';

/**
 * The OpenID Connect provider's endpoints, each handed to oidc-provider (which implements the
 * protocol): listed here so the route inventory, the OpenAPI document, rate limits and load
 * shedding cover them like every other route. Those where an app's server authenticates refuse
 * (429, 503) in RFC 6749 form, as `/oauth/token` does: `slow_down`, `temporarily_unavailable`.
 */
@ApiTags('sign-in')
@Controller()
@Public()
export class OidcController {
  constructor(private readonly host: OidcProviderHost) {}

  @Get('.well-known/openid-configuration')
  @ApiOperation({ summary: 'OpenID Connect discovery document (issuer = PUBLIC_BASE_URL)' })
  discovery(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Get('oidc/auth')
  @ApiOperation({ summary: 'Authorization endpoint: authorization code flow with PKCE (S256)' })
  authorize(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Post('oidc/auth')
  @ApiOperation({ summary: 'Authorization endpoint (form post)' })
  authorizePost(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Get('oidc/auth/:uid')
  @ApiOperation({ summary: 'Resumes an authorization after the sign-in portal' })
  resume(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Post('oidc/token')
  @UseFilters(OAuthErrorFilter)
  @ApiOperation({
    summary: 'Token endpoint: authorization_code and refresh_token grants (client_secret_basic or client_secret_post)',
  })
  token(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Get('oidc/me')
  @ApiOperation({ summary: 'UserInfo endpoint (the access token as a Bearer token)' })
  userinfo(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Post('oidc/me')
  @ApiOperation({ summary: 'UserInfo endpoint (POST)' })
  userinfoPost(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Post('oidc/token/introspection')
  @UseFilters(OAuthErrorFilter)
  @ApiOperation({ summary: 'Token introspection (RFC 7662), for the app’s own tokens' })
  introspection(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Post('oidc/token/revocation')
  @UseFilters(OAuthErrorFilter)
  @ApiOperation({ summary: 'Token revocation (RFC 7009), for the app’s own tokens' })
  revocation(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Get('oidc/session/end')
  @ApiOperation({ summary: 'RP-initiated logout' })
  endSession(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Post('oidc/session/end')
  @ApiOperation({ summary: 'RP-initiated logout (form post)' })
  endSessionPost(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Post('oidc/session/end/confirm')
  @ApiOperation({ summary: 'Logout confirmation (form with the provider’s xsrf value)' })
  endSessionConfirm(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }

  @Get('oidc/session/end/success')
  @ApiOperation({ summary: 'Signed-out page' })
  endSessionSuccess(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.host.handle(req, res);
  }
}
