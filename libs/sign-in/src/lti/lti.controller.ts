import { Body, Controller, Get, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@edu/auth';
import { BrandStore } from '../ui/brand/brand-store';
import { PAGE_HEADERS } from '../ui/html';
import { problemPage } from '../ui/pages';
import { PortalErrorFilter } from '../ui/portal-error.filter';
import { LTI_STATE_COOKIE, LtiLaunches, type LaunchResult, type LoginInitiation } from './lti-launches';
import { LtiRefusal } from './lti-refusal';
import { cookieOf } from '../ui/cookies';

const LOGIN_FIELDS = [
  'iss',
  'login_hint',
  'target_link_uri',
  'lti_message_hint',
  'client_id',
  'lti_deployment_id',
] as const;

/** Only the login initiation's own parameters, and only as strings (anything else is left out). */
function initiation(source: Record<string, unknown> | undefined): LoginInitiation {
  const out: LoginInitiation = {};
  for (const k of LOGIN_FIELDS) {
    const v = source?.[k];
    if (typeof v === 'string' && v.length > 0 && v.length <= 4096) out[k] = v;
  }
  return out;
}

/**
 * LTI 1.3 launches from a school's learning platform (its `lti1.3` provider): the login
 * initiation (GET or POST, OIDC third-party initiated login) and the launch (the platform's form
 * post of the id_token). URLs carry the provider's id; they are registered at the platform.
 */
@ApiTags('sign-in')
@Controller('signin/lti/:provider_id')
@Public()
@UseFilters(PortalErrorFilter)
export class LtiController {
  constructor(
    private readonly launches: LtiLaunches,
    private readonly brands: BrandStore,
  ) {}

  @Get('login')
  @ApiOperation({
    summary: 'LTI 1.3 login initiation from the learning platform (redirects to its authentication endpoint)',
  })
  async loginGet(
    @Param('provider_id') providerId: string,
    @Query() q: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.answer(req, res, () => this.launches.initiate(providerId, initiation(q), origin(req)));
  }

  @Post('login')
  @ApiOperation({ summary: 'LTI 1.3 login initiation, as a form post' })
  @ApiConsumes('application/x-www-form-urlencoded')
  async loginPost(
    @Param('provider_id') providerId: string,
    @Body() form: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.answer(req, res, () => this.launches.initiate(providerId, initiation(form), origin(req)));
  }

  @Post('launch')
  @ApiOperation({
    summary:
      'LTI 1.3 launch: the platform’s form post of the id_token; signs the person in to the app the launch names',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiProduces('text/html')
  async launch(
    @Param('provider_id') providerId: string,
    @Body() form: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.answer(req, res, () => this.launches.launch(providerId, form ?? {}, cookieOf(req, LTI_STATE_COOKIE)));
  }

  private async answer(req: Request, res: Response, step: () => Promise<LaunchResult>): Promise<void> {
    let result: LaunchResult;
    try {
      result = await step();
    } catch (err) {
      if (!(err instanceof LtiRefusal)) throw err;
      const brand = await this.brands.forHost(req.hostname);
      res
        .status(err.status)
        .set(PAGE_HEADERS)
        .send(
          problemPage({
            title: err.title,
            message: err.message,
            brand,
            startOver: 'Go back to your learning platform and open the activity again.',
          }),
        );
      return;
    }
    const c = result.cookie;
    if (c) {
      // The LMS's form post is a cross-site POST: only a SameSite=None cookie (https only) comes back
      // with it from another site. Over plain http (local demos and tests, the LMS on the same site) Lax.
      const sameSite = c.crossSite && req.secure ? 'none' : 'lax';
      res.cookie(c.name, c.value, {
        httpOnly: true,
        sameSite,
        secure: req.secure,
        path: c.path,
        maxAge: c.maxAgeSeconds * 1000,
      });
    }
    res.set('Cache-Control', 'no-store').redirect(303, result.location);
  }
}

/** The origin the platform reached (the issuer's host or a school's domain): the launch comes back there. */
function origin(req: Request): URL {
  try {
    return new URL(`${req.protocol}://${req.get('host') ?? req.hostname}`);
  } catch {
    return new URL(`${req.protocol}://invalid.invalid`);
  }
}
