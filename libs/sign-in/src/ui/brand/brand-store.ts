import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BrandConfiguration } from '@edu/persistence';
import { memoRead } from '../../reads/request-reads';
import { READ_KEYS } from '../../reads/read-keys';
import { BrandPaths } from './brand-paths';

/** What a page on a vanity domain needs to wear its brand (the assets are fetched separately). */
export interface PageBrand {
  portalName: string;
  paths: BrandPaths;
  hasLogo: { light: boolean; dark: boolean };
}

const MAX_DOMAIN = 253;

/** A vanity domain's page brand as read (`PAGE_BRAND_COLUMNS`), shared with the portal's batched read. */
export interface PageBrandRow {
  domain: string;
  name: unknown;
  light: boolean;
  dark: boolean;
  version: string;
}

export const PAGE_BRAND_COLUMNS = `domain, brand_configuration->>'portal_name' AS name,
  coalesce(length(brand_configuration #>> '{logo,light}'), 0) > 0 AS light,
  coalesce(length(brand_configuration #>> '{logo,dark}'), 0) > 0 AS dark,
  (extract(epoch FROM updated_at) * 1000)::bigint::text AS version`;

export function pageBrandOf(row: PageBrandRow | null | undefined): PageBrand | undefined {
  if (!row) return undefined;
  const portalName = typeof row.name === 'string' && row.name.trim() ? row.name.trim() : 'Sign in';
  return {
    portalName,
    paths: new BrandPaths(row.domain, row.version),
    hasLogo: { light: row.light, dark: row.dark },
  };
}

/** Reads vanity domains' brands: small parts for pages, one asset at a time for the asset routes. */
@Injectable()
export class BrandStore {
  /** The brands of hosts pages were served on lately: what a refusal page wears without a read. */
  private readonly recent = new LRUCache<string, PageBrand | false>({ max: 1_000, ttl: 60_000 });

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The brand of the host a page is served on (undefined off vanity domains). */
  async forHost(hostname: string): Promise<PageBrand | undefined> {
    const domain = hostname.toLowerCase();
    if (!domain || domain.length > MAX_DOMAIN) return undefined;
    const brand = await memoRead(READ_KEYS.brand(domain), () => this.pageBrand(`WHERE domain = $1`, [domain]));
    this.recent.set(domain, brand ?? false);
    return brand;
  }

  /** The host's brand as a page of the last minute read it, without reading (undefined when not known). */
  lastKnown(hostname: string): PageBrand | undefined {
    return this.recent.get(hostname.toLowerCase()) || undefined;
  }

  /** The brand of a school's own vanity domain (the first by name when it owns several), for its pages on the issuer's host. */
  forTenant(tenantId: string): Promise<PageBrand | undefined> {
    return this.pageBrand(`WHERE tenant_id = $1 ORDER BY domain LIMIT 1`, [tenantId]);
  }

  private async pageBrand(where: string, params: unknown[]): Promise<PageBrand | undefined> {
    const rows: PageBrandRow[] = await this.ds.query(
      `SELECT ${PAGE_BRAND_COLUMNS} FROM vanity_domains ${where}`,
      params,
    );
    return pageBrandOf(rows[0]);
  }

  /** The whole configuration (for the stylesheet), with the version of its asset paths. */
  async configuration(domain: string): Promise<{ config: Partial<BrandConfiguration>; paths: BrandPaths } | undefined> {
    const rows: { config: Partial<BrandConfiguration> | null; version: string }[] = await this.ds.query(
      `SELECT brand_configuration AS config, (extract(epoch FROM updated_at) * 1000)::bigint::text AS version FROM vanity_domains WHERE domain = $1`,
      [domain.toLowerCase()],
    );
    const row = rows[0];
    return row?.config && typeof row.config === 'object'
      ? { config: row.config, paths: new BrandPaths(domain.toLowerCase(), row.version) }
      : undefined;
  }

  /** One value of the configuration by its path (e.g. logo.light, typefaces.sans.0). */
  async part(domain: string, path: string[]): Promise<unknown> {
    const rows: { value: unknown }[] = await this.ds.query(
      `SELECT brand_configuration #> $2::text[] AS value FROM vanity_domains WHERE domain = $1`,
      [domain.toLowerCase(), path],
    );
    return rows[0]?.value ?? undefined;
  }
}
