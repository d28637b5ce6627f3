import { createHash } from 'node:crypto';
import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@edu/auth';
import { OidcProviderHost } from '../oidc/oidc-provider.host';
import { BrandStore } from '../ui/brand/brand-store';
import { esc, PAGE_HEADERS } from '../ui/html';
import { problemPage } from '../ui/pages';
import { cookieOf } from '../ui/cookies';
import { SignInRepository } from '../sign-in.repository';
import { SamlCompletionService } from './saml-completion.service';
import { metadataIdp } from './saml-entities';
import { SamlCredentials } from './saml-credentials';
import { SamlLogoutService } from './saml-logout.service';
import { SAML_COMPLETE_PATH } from '../oidc/client-adapter';
import { SAML_COOKIE } from './saml-paths';
import { SamlSsoService, type SamlStep } from './saml-sso.service';

const rawQuery = (req: Request) => req.originalUrl.split('?')[1] ?? '';
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const AUTO_POST = 'document.forms[0].submit();';
const AUTO_POST_HASH = `'sha256-${createHash('sha256').update(AUTO_POST).digest('base64')}'`;

/** SAML 2.0 identity provider: one per tenant (metadata, SSO), and the return from the sign-in portal. */
@ApiTags('sign-in')
@Controller('saml')
@Public()
export class SamlController {
  constructor(
    private readonly host: OidcProviderHost,
    private readonly repo: SignInRepository,
    private readonly credentials: SamlCredentials,
    private readonly sso: SamlSsoService,
    private readonly completion: SamlCompletionService,
    private readonly logouts: SamlLogoutService,
    private readonly brands: BrandStore,
  ) {}

  @Get(':tenant_id/metadata')
  @ApiOperation({
    summary: 'The tenant’s SAML identity provider metadata (entity id, SSO and SLO endpoints, signing certificates)',
  })
  @ApiProduces('application/samlmetadata+xml')
  async metadata(@Param('tenant_id') tenantId: string, @Res() res: Response): Promise<void> {
    if (!(await this.repo.tenant(tenantId))) {
      res
        .status(404)
        .set(PAGE_HEADERS)
        .send(problemPage({ title: 'Unknown school', message: 'There is no sign-in service at this address.' }));
      return;
    }
    const xml = metadataIdp(this.host.issuer, tenantId, await this.credentials.current()).getMetadata();
    res
      .status(200)
      .set({
        'Content-Type': 'application/samlmetadata+xml; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(xml);
  }

  @Get(':tenant_id/sso')
  @ApiOperation({
    summary:
      'Single sign-on, HTTP-Redirect binding: the app’s AuthnRequest (SAMLRequest, RelayState, SigAlg, Signature)',
  })
  async ssoRedirect(
    @Param('tenant_id') tenantId: string,
    @Query() q: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.render(
      req,
      res,
      await this.sso.start(tenantId, { binding: 'redirect', params: q, rawQuery: rawQuery(req) }),
    );
  }

  @Post(':tenant_id/sso')
  @ApiOperation({
    summary: 'Single sign-on, HTTP-POST binding: the app’s AuthnRequest as a form (SAMLRequest, RelayState)',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  async ssoPost(
    @Param('tenant_id') tenantId: string,
    @Body() form: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.render(req, res, await this.sso.start(tenantId, { binding: 'post', params: form ?? {}, rawQuery: '' }));
  }

  @Get(':tenant_id/apps/:app_id/start')
  @ApiOperation({
    summary:
      'IdP-initiated sign-in to a SAML app deployed at the school: the sign-in, then an unsolicited response posted to its reply_url',
  })
  async unsolicited(
    @Param('tenant_id') tenantId: string,
    @Param('app_id') appId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.render(req, res, await this.sso.startUnsolicited(tenantId, appId));
  }

  @Get(':tenant_id/slo')
  @ApiOperation({
    summary:
      'Single logout, HTTP-Redirect binding: the app’s LogoutRequest; a signed LogoutResponse is posted to its sign_out_url',
  })
  async sloRedirect(
    @Param('tenant_id') tenantId: string,
    @Query() q: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.render(
      req,
      res,
      await this.logouts.logout(tenantId, { binding: 'redirect', params: q, rawQuery: rawQuery(req) }),
    );
  }

  @Post(':tenant_id/slo')
  @ApiOperation({
    summary: 'Single logout, HTTP-POST binding: the app’s LogoutRequest as a form (SAMLRequest, RelayState)',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  async sloPost(
    @Param('tenant_id') tenantId: string,
    @Body() form: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.render(
      req,
      res,
      await this.logouts.logout(tenantId, { binding: 'post', params: form ?? {}, rawQuery: '' }),
    );
  }

  @Get('complete')
  @ApiOperation({ summary: 'The end of the sign-in: posts the signed SAML response to the app’s reply_url' })
  async complete(@Query() q: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const step = await this.completion.complete(
      { code: str(q.code), state: str(q.state), error: str(q.error) },
      cookieOf(req, SAML_COOKIE),
    );
    res.clearCookie(SAML_COOKIE, { path: SAML_COMPLETE_PATH });
    await this.render(req, res, step);
  }

  private async render(req: Request, res: Response, step: SamlStep): Promise<void> {
    switch (step.kind) {
      case 'redirect':
        if (step.cookie)
          res.cookie(SAML_COOKIE, step.cookie.value, {
            httpOnly: true,
            sameSite: 'lax',
            secure: req.secure,
            path: SAML_COMPLETE_PATH,
            maxAge: step.cookie.maxAgeMs,
          });
        res.redirect(303, step.location);
        return;
      case 'post':
        res
          .status(200)
          .set({
            ...PAGE_HEADERS,
            'Content-Security-Policy': `default-src 'none'; script-src ${AUTO_POST_HASH}; frame-ancestors 'none'; base-uri 'none'`,
          })
          .send(autoPostPage(step.action, step.fields));
        return;
      case 'problem':
        res
          .status(step.status)
          .set(PAGE_HEADERS)
          .send(
            problemPage({ title: step.title, message: step.message, brand: await this.brands.forHost(req.hostname) }),
          );
    }
  }
}

/** The HTTP-POST binding: a form the browser sends at once (or with the button, without script). */
function autoPostPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title></head><body><form method="post" action="${esc(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form><script>${AUTO_POST}</script></body></html>`;
}
