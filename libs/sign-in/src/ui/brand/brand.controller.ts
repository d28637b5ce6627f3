import { Controller, Get, Param, Query, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@edu/auth';
import { PAGE_HEADERS } from '../html';
import { problemPage } from '../pages';
import { PortalErrorFilter } from '../portal-error.filter';
import { assetHeaders, cacheControl, fontAsset, imageAsset, type Asset } from './brand-assets';
import { brandCss } from './brand-css';
import { BRAND_FAMILIES, type BrandFamily } from './brand-paths';
import { BrandStore } from './brand-store';

const MAX_FONTS = 10;

/**
 * A vanity domain's brand for its sign-in pages: the generated stylesheet, the logos, the
 * background image and uploaded fonts, each with its exact content type (never inlined).
 */
@ApiTags('sign-in')
@Controller('signin/brand/:domain')
@Public()
@UseFilters(PortalErrorFilter)
export class BrandController {
  constructor(private readonly store: BrandStore) {}

  @Get('brand.css')
  @ApiOperation({ summary: 'A vanity domain’s sign-in stylesheet, generated from its brand configuration' })
  @ApiProduces('text/css')
  async css(@Param('domain') domain: string, @Query() q: Record<string, unknown>, @Res() res: Response): Promise<void> {
    const brand = await this.store.configuration(domain);
    if (!brand) return notFound(res);
    res
      .status(200)
      .set(assetHeaders('text/css; charset=utf-8', cacheControl(q)))
      .send(brandCss(brand.config, brand.paths));
  }

  @Get('logo/:scheme')
  @ApiOperation({ summary: 'A vanity domain’s logo for light or dark pages (image/svg+xml or image/png)' })
  @ApiProduces('image/svg+xml', 'image/png')
  async logo(
    @Param('domain') domain: string,
    @Param('scheme') scheme: string,
    @Query() q: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    if (scheme !== 'light' && scheme !== 'dark') return notFound(res);
    send(res, q, imageAsset(await this.store.part(domain, ['logo', scheme])));
  }

  @Get('background')
  @ApiOperation({ summary: 'A vanity domain’s background image (image/svg+xml or image/png)' })
  @ApiProduces('image/svg+xml', 'image/png')
  async background(
    @Param('domain') domain: string,
    @Query() q: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    send(res, q, imageAsset(await this.store.part(domain, ['background', 'image'])));
  }

  @Get('fonts/:family/:index')
  @ApiOperation({ summary: 'An uploaded typeface of a vanity domain (font/woff, font/woff2, font/ttf or font/otf)' })
  @ApiProduces('font/woff', 'font/woff2', 'font/ttf', 'font/otf')
  async font(
    @Param('domain') domain: string,
    @Param('family') family: string,
    @Param('index') index: string,
    @Query() q: Record<string, unknown>,
    @Res() res: Response,
  ): Promise<void> {
    const i = /^\d{1,2}$/.test(index) ? Number(index) : -1;
    if (!(BRAND_FAMILIES as readonly string[]).includes(family) || i < 0 || i >= MAX_FONTS) return notFound(res);
    send(res, q, fontAsset(await this.store.part(domain, ['typefaces', family as BrandFamily, String(i)])));
  }
}

function send(res: Response, q: Record<string, unknown>, asset: Asset | undefined): void {
  if (!asset) return notFound(res);
  res
    .status(200)
    .set(assetHeaders(asset.contentType, cacheControl(q)))
    .send(asset.body);
}

function notFound(res: Response): void {
  res
    .status(404)
    .set(PAGE_HEADERS)
    .send(problemPage({ title: 'Not found', message: 'No such file.' }));
}
