import { TEST_PNG, TEST_SVG } from '@edu/testing';
import { PORTAL_CSS_HREF } from '../portal.css';
import { cacheControl, fontAsset, imageAsset } from './brand-assets';

const WOFF = Buffer.concat([Buffer.from('wOFF'), Buffer.alloc(60)]).toString('base64');

describe('brand assets', () => {
  it('serves an SVG as image/svg+xml and a base64 PNG (bare or as a data: URI) as its bytes', () => {
    expect(imageAsset(TEST_SVG)).toEqual({ contentType: 'image/svg+xml', body: Buffer.from(TEST_SVG) });
    const png = Buffer.from(TEST_PNG, 'base64');
    expect(imageAsset(TEST_PNG)).toEqual({ contentType: 'image/png', body: png });
    expect(imageAsset(`data:image/png;base64,${TEST_PNG}`)).toEqual({ contentType: 'image/png', body: png });
  });

  it('serves nothing the write rules would refuse', () => {
    for (const bad of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<html><body>hi</body></html>',
      Buffer.from('GIF89a').toString('base64'),
      '',
      null,
      42,
    ]) {
      expect(imageAsset(bad)).toBeUndefined();
    }
  });

  it('serves an uploaded font with the content type of its file_type, only when its bytes are that type', () => {
    expect(fontAsset({ name: 'X', source: 'file', file_type: 'woff', file: WOFF })).toEqual({
      contentType: 'font/woff',
      body: Buffer.from(WOFF, 'base64'),
    });
    expect(fontAsset({ name: 'X', source: 'file', file_type: 'woff2', file: WOFF })).toBeUndefined();
    expect(fontAsset({ name: 'X', source: 'file', file_type: 'constructor', file: WOFF })).toBeUndefined();
    expect(fontAsset({ name: 'Inter', source: 'google' })).toBeUndefined();
    expect(fontAsset({ name: 'X', source: 'file', file_type: 'woff', file: 'not base64!' })).toBeUndefined();
    expect(fontAsset(null)).toBeUndefined();
  });

  it('a versioned URL (the pages link every asset with ?v=) is cached a year; without v, five minutes', () => {
    expect(cacheControl({ v: '2026-01-01T00:00:00.000Z' })).toBe('public, max-age=31536000, immutable');
    expect([cacheControl({}), cacheControl({ v: '' }), cacheControl({ v: ['a', 'b'] })]).toEqual([
      'public, max-age=300',
      'public, max-age=300',
      'public, max-age=300',
    ]);
    expect(PORTAL_CSS_HREF).toMatch(/^\/signin\/assets\/portal\.css\?v=[\w-]{16}$/);
  });
});
