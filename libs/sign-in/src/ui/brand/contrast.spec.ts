import { contrastRatio, parseHexColor, readableOn, relativeLuminance } from './contrast';

describe('brand colour contrast (WCAG)', () => {
  it('computes luminance and ratios as WCAG defines them', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#1d4ed8', '#1d4ed8')).toBe(1);
  });

  it('keeps a preferred colour that reaches AA and falls back when the pair fails', () => {
    expect(readableOn('#ffffff', ['#767676'])).toBe('#767676');
    expect(readableOn('#ffffff', ['#777777', '#1d2329'])).toBe('#1d2329');
    // Yellow on white fails: black reads better than white.
    expect(readableOn('#ffffff', ['#f59e0b'])).toBe('#000000');
    // Mid-blue: white text is 4.5+ (kept); on a pale yellow, white fails and black is chosen.
    expect(readableOn('#1d4ed8', ['#ffffff'])).toBe('#ffffff');
    expect(readableOn('#fde68a', ['#ffffff'])).toBe('#000000');
    expect(readableOn('#101418', [])).toBe('#ffffff');
  });

  it('honours a lower minimum for non-text parts', () => {
    expect(readableOn('#ffffff', ['#949494'], 3)).toBe('#949494');
    expect(readableOn('#ffffff', ['#949494'])).toBe('#000000');
  });

  it('has a readable fallback for every grey (the worst case of black-or-white is above 4.5:1)', () => {
    for (let v = 0; v <= 255; v++) {
      const grey = `#${v.toString(16).padStart(2, '0').repeat(3)}`;
      expect(contrastRatio(readableOn(grey, []), grey)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('parses only #RRGGBB', () => {
    expect(parseHexColor('#1D4ED8')).toBe('#1d4ed8');
    for (const bad of ['red', '#fff', '#1d4ed8;}', 'url(x)', '#1d4ed8 ', null, 7])
      expect(parseHexColor(bad)).toBeUndefined();
  });
});
