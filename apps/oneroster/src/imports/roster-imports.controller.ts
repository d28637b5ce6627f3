import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { refusedImportPayload, type RosterImportView } from './roster-import.views';
import { RosterImportsService } from './roster-imports.service';

/**
 * Operator endpoint for roster CSV imports: POST the package (a zip, `Content-Type:
 * application/zip`) for a tenant; 201 with the report when it finished in time, 400 with the
 * imsx payload (one entry per error) when refused, 202 while it runs (poll the `Location`).
 */
@Controller('admin/tenants/:tenantId/roster-imports')
@RequireScopes('platform.admin')
export class RosterImportsController {
  constructor(private readonly imports: RosterImportsService) {}

  @Post()
  async create(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Req() req: Request & { id?: string },
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, unknown>> {
    const length = req.headers['content-length'];
    const { view } = await this.imports.accept(who, tenantId, {
      body: req,
      contentType: req.headers['content-type'],
      contentLength: length === undefined ? undefined : Number(length),
    });
    res.location(`/admin/tenants/${view.tenant_id}/roster-imports/${view.id}`);
    if (view.status === 'failed') {
      res.status(400);
      return refusedImportPayload(view, String(req.id ?? ''));
    }
    res.status(view.status === 'running' ? 202 : 201);
    return { import: view };
  }

  @Get()
  async list(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
  ): Promise<{ imports: RosterImportView[] }> {
    return { imports: await this.imports.list(who, tenantId) };
  }

  @Get(':importId')
  async get(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Param('importId') importId: string,
  ): Promise<{ import: RosterImportView }> {
    return { import: await this.imports.get(who, tenantId, importId) };
  }
}
