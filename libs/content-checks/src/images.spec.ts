import { fontProblem, imageProblem } from './images';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>';

describe('image rules (the SVG rule itself: svg-safety.spec.ts)', () => {
  it('accepts SVG documents and base64 PNGs (raw or data URI)', () => {
    expect(imageProblem(SVG, 1024)).toBeUndefined();
    expect(imageProblem(`<?xml version="1.0"?>${SVG}`, 1024)).toBeUndefined();
    expect(imageProblem(PNG, 1024)).toBeUndefined();
    expect(imageProblem(`data:image/png;base64,${PNG}`, 1024)).toBeUndefined();
  });

  it.each([
    ['not a string', 42, /SVG document or a base64/],
    ['empty', '', /SVG document or a base64/],
    ['another XML document', '<html/>', /root element must be <svg>/],
    ['an SVG outside the SVG namespace', '<svg/>', /root element must be <svg> in the SVG namespace/],
    ['a malformed SVG', '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>', /well-formed/],
    ['a script element', SVG.replace('<rect', '<script>x</script><rect'), /<script> is not an allowed SVG element/],
    ['an event handler', SVG.replace('<rect', '<rect onclick="x()"'), /event handler/],
    ['a GIF', 'R0lGODlhAQABAAAAACw=', /PNG/],
    ['base64 with whitespace', PNG.slice(0, 20) + ' ' + PNG.slice(20), /PNG/],
  ])('refuses %s', (_name, value, message) => {
    expect(imageProblem(value, 1024)).toMatch(message);
  });

  it('caps the decoded size', () => {
    expect(imageProblem(PNG, 10)).toMatch(/at most/);
    expect(imageProblem(SVG.replace('<rect', `${' '.repeat(2048)}<rect`), 1024)).toMatch(/at most/);
  });

  it('svgOnly refuses PNGs', () => {
    expect(imageProblem(PNG, 1024, true)).toMatch(/SVG document/);
    expect(imageProblem(SVG, 1024, true)).toBeUndefined();
  });
});

describe('font files', () => {
  const b64 = (magic: string) => Buffer.concat([Buffer.from(magic, 'latin1'), Buffer.alloc(16)]).toString('base64');
  it('checks base64 and the magic number of the declared type', () => {
    expect(fontProblem(b64('wOFF'), 'woff')).toBeUndefined();
    expect(fontProblem(b64('wOF2'), 'woff2')).toBeUndefined();
    expect(fontProblem(b64('OTTO'), 'otf')).toBeUndefined();
    expect(fontProblem(b64('\u0000\u0001\u0000\u0000'), 'ttf')).toBeUndefined();
    expect(fontProblem(b64('wOFF'), 'woff2')).toMatch(/not a woff2 file/);
    expect(fontProblem('%%%', 'woff')).toMatch(/base64/);
    expect(fontProblem(7, 'woff')).toMatch(/base64/);
  });
});
