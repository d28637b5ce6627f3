import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { RefusalReason } from '../log/refusal-reason';
import { ApiConsumes, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@edu/auth';
import { SignInRepository } from '../sign-in.repository';
import { cacheControl } from '../ui/brand/brand-assets';
import { BrandStore } from '../ui/brand/brand-store';
import { PortalCsrf } from '../ui/csrf';
import { PAGE_HEADERS } from '../ui/html';
import { CSRF_FIELD, problemPage, providersPage, schoolPickPage, type PortalContext } from '../ui/pages';
import { PortalErrorFilter } from '../ui/portal-error.filter';
import { PORTAL_CSS } from '../ui/portal.css';
import { CompleteSignIn } from './complete-sign-in';
import { PortalInteractions } from './portal-interactions';
import type { Interaction, Step } from './portal-steps';
import { RefuseSignIn } from './refuse-sign-in';
import { StartSignIn } from './start-sign-in';
import { UpstreamCallback } from './upstream-callback';

const rawQuery = (req: Request) => req.originalUrl.split('?')[1] ?? '';
const isStep = (v: Interaction | Step): v is Step => 'kind' in v;
/** A form without this interaction's CSRF token, or posted from another site. */
const formExpired = (it: Interaction): Step => ({
  kind: 'problem',
  status: 403,
  title: 'This page has expired',
  message: 'This form was not sent from your sign-in page. Go back to the app and sign in again.',
  reason: RefusalReason.CsrfFailed,
  app: it.app,
});

/** The server-rendered sign-in portal (HTML, no script): school, provider, the provider's return. */
@ApiTags('sign-in')
@Controller('signin')
@Public()
@UseFilters(PortalErrorFilter)
export class PortalController {
  constructor(
    private readonly interactions: PortalInteractions,
    private readonly starts: StartSignIn,
    private readonly callbacks: UpstreamCallback,
    private readonly completion: CompleteSignIn,
    private readonly refusals: RefuseSignIn,
    private readonly repo: SignInRepository,
    private readonly brands: BrandStore,
    private readonly csrf: PortalCsrf,
  ) {}

  @Get('interaction/:uid')
  @ApiOperation({ summary: 'Sign-in page: choose the school, then a way to sign in (HTML)' })
  @ApiProduces('text/html')
  async show(
    @Param('uid') uid: string,
    @Query() q: Record<string, string>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const it = await this.interactions.find(req, res, uid);
    if (isStep(it)) return this.render(req, res, it, uid);
    const launched = await this.completion.fromLaunch(req, res, it);
    if (launched === 'done') return;
    if (launched) return this.render(req, res, launched, uid);
    // The search is a GET that changes nothing, but it is a form: it carries the token too.
    if (q.q !== undefined && !this.csrf.check(req, uid, q[CSRF_FIELD]))
      return this.render(req, res, await this.refusals.refuse(formExpired(it), { it }), uid);
    await this.render(
      req,
      res,
      await this.starts.show(req, it, { tenant: str(q.tenant), q: str(q.q), pick: str(q.pick) }),
      uid,
    );
  }

  @Post('interaction/:uid/start')
  @ApiOperation({ summary: 'Start signing in at the chosen provider (a form with the CSRF token; redirects there)' })
  @ApiConsumes('application/x-www-form-urlencoded')
  async start(
    @Param('uid') uid: string,
    @Body() form: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const it = await this.interactions.find(req, res, uid);
    if (isStep(it)) return this.render(req, res, it, uid);
    if (!this.csrf.check(req, uid, form?.[CSRF_FIELD]))
      return this.render(req, res, await this.refusals.refuse(formExpired(it), { it }), uid);
    await this.render(req, res, await this.starts.start(req, it, str(form.tenant), str(form.provider)), uid);
  }

  @Get('callback')
  @ApiOperation({
    summary: 'Redirect URI registered at upstream providers: back to the sign-in page the person started on',
  })
  async callback(@Query() q: Record<string, string>, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.render(req, res, await this.callbacks.callback(rawQuery(req), str(q.state)));
  }

  @Get('interaction/:uid/upstream')
  @ApiOperation({
    summary: 'The provider’s answer, checked in the browser that left for it; completes the authorization',
  })
  async upstream(@Param('uid') uid: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const it = await this.interactions.find(req, res, uid);
    if (isStep(it)) return this.render(req, res, it, uid);
    const step = await this.callbacks.finish(req, res, it, rawQuery(req));
    if (step !== 'done') await this.render(req, res, step, uid);
  }

  @Post('interaction/:uid/abort')
  @ApiOperation({ summary: 'Give up: back to the app with error=access_denied (a form with the CSRF token)' })
  @ApiConsumes('application/x-www-form-urlencoded')
  async abort(
    @Param('uid') uid: string,
    @Body() form: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const it = await this.interactions.find(req, res, uid);
    if (isStep(it)) return this.render(req, res, it, uid);
    if (!this.csrf.check(req, uid, form?.[CSRF_FIELD]))
      return this.render(req, res, await this.refusals.refuse(formExpired(it), { it }), uid);
    await this.interactions.abort(req, res);
  }

  @Get('providers/:id/button.svg')
  @ApiOperation({ summary: 'A provider’s button graphic (image/svg+xml, sandboxed)' })
  @ApiProduces('image/svg+xml')
  async button(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const svg = await this.repo.buttonGraphic(id);
    if (!svg) {
      res
        .status(404)
        .set(PAGE_HEADERS)
        .send(problemPage({ title: 'Not found', message: 'No such image.' }));
      return;
    }
    res
      .status(200)
      .set({
        'Content-Type': 'image/svg+xml',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'public, max-age=300',
        'Cross-Origin-Resource-Policy': 'same-origin',
      })
      .send(svg);
  }

  @Get('assets/portal.css')
  @ApiOperation({ summary: 'The sign-in pages’ stylesheet' })
  css(@Query() q: Record<string, unknown>, @Res() res: Response): void {
    res
      .status(200)
      .set({
        'Content-Type': 'text/css; charset=utf-8',
        'Cache-Control': cacheControl(q),
        'X-Content-Type-Options': 'nosniff',
      })
      .send(PORTAL_CSS);
  }

  private async render(req: Request, res: Response, step: Step, uid?: string): Promise<void> {
    if (step.kind === 'redirect') {
      if (step.cookie) {
        res.cookie(step.cookie.name, step.cookie.value, {
          httpOnly: true,
          sameSite: 'lax',
          secure: req.secure,
          path: step.cookie.path,
          maxAge: step.cookie.maxAgeMs,
        });
      }
      res.redirect(303, step.location);
      return;
    }
    const brand = await this.brands.forHost(req.hostname);
    const ctx = (appName: string): PortalContext => ({
      uid: uid ?? '',
      appName,
      csrf: this.csrf.token(uid ?? ''),
      brand,
    });
    switch (step.kind) {
      case 'pick':
        res
          .status(200)
          .set(PAGE_HEADERS)
          .send(schoolPickPage(ctx(step.app.name), step.query, step.results));
        return;
      case 'providers':
        res
          .status(200)
          .set(PAGE_HEADERS)
          .send(providersPage(ctx(step.app.name), step.tenant, step.providers, step.pickAnother));
        return;
      case 'problem': {
        const canAbort =
          step.app !== undefined &&
          uid !== undefined &&
          step.reason !== RefusalReason.InteractionNotFound &&
          step.reason !== RefusalReason.InteractionMismatch;
        const back = canAbort && step.app ? ctx(step.app.name) : undefined;
        res
          .status(step.status)
          .set(PAGE_HEADERS)
          .send(problemPage({ title: step.title, message: step.message, back, brand }));
        return;
      }
    }
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
