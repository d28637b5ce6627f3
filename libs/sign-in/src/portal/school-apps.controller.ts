import { Controller, Get, Param, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@edu/auth';
import { SignInRepository, type SignInTenant } from '../sign-in.repository';
import { BrandStore } from '../ui/brand/brand-store';
import { PAGE_HEADERS } from '../ui/html';
import { problemPage } from '../ui/pages';
import { PortalErrorFilter } from '../ui/portal-error.filter';
import { SchoolApps } from './school-apps';
import { schoolAppsPage } from './school-apps.page';

/**
 * A school's page of apps (public, like the portal's provider buttons: it shows what the school
 * has deployed, nothing about anyone): each tile starts the sign-in to one app.
 */
@ApiTags('sign-in')
@Controller('signin')
@Public()
@UseFilters(PortalErrorFilter)
export class SchoolAppsController {
  constructor(
    private readonly repo: SignInRepository,
    private readonly apps: SchoolApps,
    private readonly brands: BrandStore,
  ) {}

  @Get('schools/:tenant_id/apps')
  @ApiOperation({ summary: 'A school’s apps as tiles, each starting the sign-in to the app (HTML)' })
  @ApiProduces('text/html')
  async school(@Param('tenant_id') tenantId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const domainTenants = await this.repo.vanityDomainTenants(req.hostname);
    const tenant = await this.repo.tenant(tenantId);
    // On a vanity domain, only the schools that domain serves.
    await this.show(req, res, tenant && (!domainTenants || domainTenants.includes(tenant.id)) ? tenant : null);
  }

  @Get('apps')
  @ApiOperation({ summary: 'On a vanity domain of one school: that school’s apps as tiles (HTML)' })
  @ApiProduces('text/html')
  async domain(@Req() req: Request, @Res() res: Response): Promise<void> {
    const domainTenants = await this.repo.vanityDomainTenants(req.hostname);
    await this.show(req, res, domainTenants?.length === 1 ? await this.repo.tenant(domainTenants[0]) : null);
  }

  private async show(req: Request, res: Response, tenant: SignInTenant | null): Promise<void> {
    const hostBrand = await this.brands.forHost(req.hostname);
    if (!tenant) {
      res
        .status(404)
        .set(PAGE_HEADERS)
        .send(
          problemPage({
            title: 'Unknown school',
            message: 'There is no school’s app page at this address.',
            startOver: 'Check the address, or ask your school for its link.',
            brand: hostBrand,
          }),
        );
      return;
    }
    const brand = hostBrand ?? (await this.brands.forTenant(tenant.id));
    res
      .status(200)
      .set(PAGE_HEADERS)
      .send(schoolAppsPage(tenant, await this.apps.tiles(tenant.id), brand));
  }
}
