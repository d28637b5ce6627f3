import { Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@edu/auth';
import { DeliveriesService } from '../deliveries/deliveries.service';
import { WebhooksService } from '../webhooks/webhooks.service';
import { PORTAL_CSP } from './portal-html';
import type { Flash } from './portal-page';
import { PortalReader } from './portal-reader';
import { PortalResponder } from './portal-responder';
import { PORTAL_CSS } from './portal.css';

const when = (iso: string | null): string => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '');

/**
 * The partners' delivery portal: server-rendered pages (no script) behind a session opened from
 * a signed link (`POST /v2/alerts/portal-sessions`). Public to the token guard: the session is
 * the credential. HTML pages, not API operations, so not in the OpenAPI document.
 */
@ApiExcludeController()
@Public()
@Controller('v2/alerts/portal')
export class PortalController {
  constructor(
    private readonly pages: PortalResponder,
    private readonly reader: PortalReader,
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get('portal.css')
  css(@Res() res: Response): void {
    res
      .set('Content-Security-Policy', PORTAL_CSP)
      .set('Cache-Control', 'public, max-age=3600')
      .type('css')
      .send(PORTAL_CSS);
  }

  @Get('open')
  open(@Query('token') token: unknown, @Res() res: Response): Promise<void> {
    return this.pages.open(token, res);
  }

  @Get()
  show(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.pages.page(req, res);
  }

  @Post('webhooks/:id/test')
  test(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    return this.pages.page(
      req,
      res,
      async (s): Promise<Flash> => {
        const r = await this.deliveries.test(this.reader.principal(s), id);
        const a = r.attempt;
        if (r.success)
          return { text: `Test delivered: your endpoint answered ${a?.response_status} in ${a?.duration_ms} ms.` };
        if (!a) return { text: 'The test delivery is still under way; it shows below once attempted.' };
        return { text: `Test failed: ${a.error_code ?? ''} ${a.error_message ?? ''}`.trim(), bad: true };
      },
      [id],
    );
  }

  @Post('webhooks/:id/enable')
  enable(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    return this.pages.page(
      req,
      res,
      async (s): Promise<Flash> => {
        const r = await this.webhooks.update(this.reader.principal(s), id, { status: 'active' });
        return r.updated_props?.status
          ? { text: 'Re-enabled: what was held while it was disabled is being sent now.' }
          : { text: 'This webhook was not disabled.' };
      },
      [id],
    );
  }

  @Post('webhooks/:id/rotate-secret')
  rotate(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    return this.pages.page(
      req,
      res,
      async (s): Promise<Flash> => {
        const r = await this.webhooks.rotateSecret(this.reader.principal(s), id, {});
        const until = r.previous_secret_expires_at
          ? ` The old secret signs beside it until ${when(r.previous_secret_expires_at)}.`
          : '';
        return { text: `New signing secret, shown this once: store it now.${until}`, secret: r.secret };
      },
      [id],
    );
  }

  @Post('webhooks/:id/deliveries/:deliveryId/redeliver')
  redeliver(
    @Req() req: Request,
    @Res() res: Response,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<void> {
    return this.pages.page(
      req,
      res,
      async (s): Promise<Flash> => {
        const r = await this.deliveries.redeliver(this.reader.principal(s), id, deliveryId);
        return { text: `Redelivery ${r.delivery_id} is on its way (it shows below).` };
      },
      [id, deliveryId],
    );
  }
}
