/** Where a vanity domain's brand assets are served (all under /signin/brand/, this origin). */
export const BRAND_FAMILIES = ['sans', 'serif'] as const;
export type BrandFamily = (typeof BRAND_FAMILIES)[number];
export type Scheme = 'light' | 'dark';

export class BrandPaths {
  private readonly base: string;

  /** `version` changes whenever the brand does, so caches never show an old brand for long. */
  constructor(
    readonly domain: string,
    private readonly version: string,
  ) {
    this.base = `/signin/brand/${encodeURIComponent(domain)}`;
  }

  private at(path: string): string {
    return `${this.base}/${path}?v=${encodeURIComponent(this.version)}`;
  }

  get css(): string {
    return this.at('brand.css');
  }

  logo(scheme: Scheme): string {
    return this.at(`logo/${scheme}`);
  }

  get background(): string {
    return this.at('background');
  }

  font(family: BrandFamily, index: number): string {
    return this.at(`fonts/${family}/${index}`);
  }
}
