import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import type { BrandConfiguration } from '@edu/persistence';
import { testBrand, World } from '@edu/testing';

/** A real WOFF typeface (DejaVu Serif Condensed Bold Italic; see fixtures/fonts/README.txt). */
export const WOFF_FONT = readFileSync(
  path.join(__dirname, '..', 'fixtures', 'fonts', 'dejavu-serif-condensed-bold-italic.woff'),
);

const logo = (fill: string, text: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="192" height="48" viewBox="0 0 192 48"><circle cx="24" cy="24" r="20" fill="${fill}"/><path d="M14 30 L24 12 L34 30 Z" fill="#f59e0b"/><text x="52" y="32" font-family="sans-serif" font-size="22" font-weight="700" fill="${fill}">${text}</text></svg>`;

const DOTS = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="16" cy="16" r="6" fill="#1d4ed8" fill-opacity="0.18"/><circle cx="48" cy="48" r="10" fill="#f59e0b" fill-opacity="0.18"/></svg>`;

/** A 24x24 PNG tile of teal dots. */
const TILE_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAYAAADgdz34AAAAKUlEQVR42mNgGDaAvywvCoRppZ72FoyC0dQ1mrpGU8toahkFo6lrQAEAShspocQqiP8AAAAASUVORK5CYII=';

/** Lion City: blue and amber, centred, an uploaded serif typeface for headings, SVG logos. */
export function lionCityBrand(): BrandConfiguration {
  const base = testBrand();
  return {
    ...base,
    portal_name: 'Lion City Schools',
    primary_color: '#1d4ed8',
    secondary_color: '#f59e0b',
    typefaces: {
      sans: [{ name: 'Inter', source: 'google' }],
      serif: [{ name: 'Lion Serif', source: 'file', file_type: 'woff', file: WOFF_FONT.toString('base64') }],
    },
    font_styles: { header: ['serif', 'font-semibold'], prose: ['sans'] },
    layout: 'center',
    logo: { light: logo('#1e3a8a', 'Lion City'), dark: logo('#dbeafe', 'Lion City') },
    background: {
      color: { light: '#f5f7fa', dark: '#0b1f3a' },
      gradient: { from: '#dbeafe', via: '#eff6ff', to: '#fde68a' },
      image: DOTS,
      position: 'center',
      repeat: 'repeat',
      size: 'auto',
    },
  };
}

/** Kampong: Lion City's look with its own name and logo (a school's own sign-in provider in the browser tests). */
export function kampongBrand(): BrandConfiguration {
  return {
    ...lionCityBrand(),
    portal_name: 'Kampong Schools',
    logo: { light: logo('#1e3a8a', 'Kampong'), dark: logo('#dbeafe', 'Kampong') },
  };
}

/** Harbour High: a pale yellow primary that fails on white (the fallback must apply), teal, left, PNG tile. */
export function harbourBrand(): BrandConfiguration {
  return {
    ...testBrand(),
    portal_name: 'Harbour High Sign-in',
    primary_color: '#fde68a',
    secondary_color: '#0f766e',
    typefaces: { sans: [], serif: [{ name: 'Merriweather', source: 'google' }] },
    font_styles: { header: ['sans', 'font-bold', 'uppercase', 'tracking-wide'], prose: ['serif'] },
    layout: 'left',
    logo: { light: logo('#0f766e', 'Harbour'), dark: logo('#99f6e4', 'Harbour') },
    background: {
      color: { light: '#ecfeff', dark: '#042f2e' },
      gradient: { from: '#ccfbf1', via: null, to: '#0f766e' },
      image: TILE_PNG,
      position: 'top',
      repeat: 'repeat',
      size: 'auto',
    },
  };
}

/** A vanity domain of `tenantId` wearing `brand`, serving `tenants` (default: the owner only). */
export async function brandedDomain(
  ds: DataSource,
  tenantId: string,
  domain: string,
  brand: BrandConfiguration,
  tenants = [tenantId],
): Promise<void> {
  await new World(ds).vanityDomain(tenantId, domain);
  await ds.query(`UPDATE vanity_domains SET brand_configuration = $2, tenants = $3 WHERE domain = $1`, [
    domain,
    JSON.stringify(brand),
    tenants,
  ]);
}
