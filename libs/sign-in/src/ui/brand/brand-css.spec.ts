import { parse, walk } from 'css-tree';
import type { BrandConfiguration } from '@edu/persistence';
import { testBrand } from '@edu/testing';
import { brandCss, brandPalette } from './brand-css';
import { BrandPaths } from './brand-paths';
import { contrastRatio } from './contrast';
import { cssString } from './css-values';

const paths = new BrandPaths('portal.lioncity.example', '1700000000000');
const WOFF = Buffer.from('wOFF0000').toString('base64');

/** What a CSS parser finds in the stylesheet: at-rules, url() values, font-family strings. */
function parsed(css: string): { atRules: Set<string>; urls: string[]; strings: string[] } {
  const out = { atRules: new Set<string>(), urls: [] as string[], strings: [] as string[] };
  walk(parse(css, { parseCustomProperty: true }), (node) => {
    if (node.type === 'Atrule') out.atRules.add(node.name);
    if (node.type === 'Url') out.urls.push(node.value);
    if (node.type === 'String') out.strings.push(node.value);
  });
  return out;
}

describe('brand stylesheet', () => {
  it('wears the brand: colours, layout, background layers, font stacks and styles', () => {
    const brand: BrandConfiguration = {
      ...testBrand(),
      layout: 'right',
      typefaces: {
        sans: [
          { name: 'Lion Sans', source: 'file', file_type: 'woff', file: WOFF },
          { name: 'Inter', source: 'google' },
        ],
        serif: [],
      },
      font_styles: { header: ['serif', 'font-bold', 'uppercase'], prose: ['sans'] },
    };
    const css = brandCss(brand, paths);
    expect(css).toContain('--primary: #1d4ed8;');
    expect(css).toContain('body { justify-content: flex-end; }');
    expect(css).toContain(
      '@font-face { font-family: "brand-sans-0"; src: url("/signin/brand/portal.lioncity.example/fonts/sans/0?v=1700000000000") format("woff"); font-display: swap; }',
    );
    expect(css).toContain('--font-sans: "brand-sans-0", "Inter", system-ui');
    expect(css).toContain('h1, h2 { font-family: var(--font-serif); font-weight: 700; text-transform: uppercase; }');
    expect(css).toContain('body, input, button { font-family: var(--font-sans); }');
    expect(css).toContain(
      'background-image: url("/signin/brand/portal.lioncity.example/background?v=1700000000000"), linear-gradient(to bottom right, #0b1f3a, #1d4ed8);',
    );
    expect(css).toContain('background-repeat: no-repeat, no-repeat; background-size: cover, cover;');
    expect(css).toContain(
      '@media (prefers-color-scheme: dark) { body { background-color: #0b1f3a; background-image: url("/signin/brand/portal.lioncity.example/background?v=1700000000000"); background-position: center; background-repeat: no-repeat; background-size: cover; } }',
    );
  });

  it('keeps brand text readable: a failing pair falls back (WCAG AA)', () => {
    // Pale yellow primary: white on it fails, and as link colour on white it fails too.
    const p = brandPalette({ primary_color: '#fde68a', secondary_color: '#1d4ed8' });
    expect(p.onPrimary).not.toBe('#ffffff');
    expect(contrastRatio(p.onPrimary, '#fde68a')).toBeGreaterThanOrEqual(4.5);
    expect(p.link.light).toBe('#1d2329');
    // ...but it reads on the dark card, so dark pages keep it.
    expect(p.link.dark).toBe('#fde68a');
    expect(p.onSecondary).toBe('#ffffff');
  });

  it('lets nothing out of its value: hostile strings are escaped, bad colours and keywords replaced', () => {
    const hostile = {
      ...testBrand(),
      primary_color: 'red; } body { display: none',
      secondary_color: '#123456 !important',
      layout: 'center; background: url(https://evil.example/x)',
      typefaces: {
        sans: [{ name: 'X"; } @import url(https://evil.example/a.css); a { b: "', source: 'google' }],
        serif: [{ name: 'Y', source: 'file', file_type: 'exe', file: WOFF }],
      },
      font_styles: { header: ['sans', 'font-bold;color:red'], prose: ['serif', '}'] },
      background: {
        ...testBrand().background,
        position: 'center;x',
        size: 'cover) url(//evil.example',
        gradient: { from: 'red', via: 'javascript:', to: '#ffffff' },
      },
    } as unknown as BrandConfiguration;
    const css = brandCss(hostile, paths);
    // The parser sees only our at-rules and our urls; the hostile name stays one string.
    const p = parsed(css);
    expect([...p.atRules]).toEqual(['media']);
    expect(p.urls.every((u) => u.startsWith('/signin/brand/portal.lioncity.example/'))).toBe(true);
    expect(p.strings).toContain('X"; } @import url(https://evil.example/a.css); a { b: "');
    expect(css).not.toMatch(/display: none|!important|javascript|#123456/);
    expect(css).toContain('--primary: #1a4f8b;');
    expect(css).toContain('body { justify-content: center; }');
    expect(css).not.toContain('brand-serif-0');
    expect(css).not.toContain('linear-gradient');
    // Braces only where the generator put them: each line's rules balance.
    for (const line of css.split('\n')) expect((line.match(/\{/g) ?? []).length).toBe((line.match(/\}/g) ?? []).length);
  });

  it('escapes CSS strings code point by code point', () => {
    expect(cssString('Inter Display')).toBe('"Inter Display"');
    expect(cssString('a"b\\c\n}')).toBe('"a\\22 b\\5c c\\7d "');
    expect(cssString('Noto 😀')).toBe('"Noto \\1f600 "');
  });

  it('survives a configuration missing its parts', () => {
    const css = brandCss({}, paths);
    expect(css).toContain('--primary: #1a4f8b;');
    expect(css).not.toContain('url(');
  });
});
