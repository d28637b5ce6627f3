import { FORMERLY_ACCEPTED, ORDINARY, svg, VECTORS } from '../../../test/fixtures/svg/corpus';
import { checkSvg, IMAGE_MAX_BYTES, imageProblem } from '@edu/content-checks';

describe('SVG image rule', () => {
  it('has a corpus of at least 40 vectors and 8 ordinary logos', () => {
    expect(VECTORS.length).toBeGreaterThanOrEqual(40);
    expect(ORDINARY.length).toBeGreaterThanOrEqual(8);
    expect(new Set(VECTORS.map(([name]) => name)).size).toBe(VECTORS.length);
  });

  it.each(VECTORS)('refuses %s', (_name, doc) => {
    expect(imageProblem(doc, IMAGE_MAX_BYTES)).toMatch(/^is not (an allowed|a well-formed) SVG/);
  });

  it.each(ORDINARY)('accepts the ordinary logo %s', (_file, doc) => {
    expect(checkSvg(doc)).toEqual({ ok: true });
    expect(imageProblem(doc, IMAGE_MAX_BYTES)).toBeUndefined();
  });

  it('refuses the vectors the earlier check let through, saying why', () => {
    expect(FORMERLY_ACCEPTED.map(([, doc]) => imageProblem(doc, IMAGE_MAX_BYTES))).toEqual([
      'is not an allowed SVG image: href must point inside the document (#id) or be a data:image/png, jpeg, gif or webp URI',
      'is not an allowed SVG image: href must point inside the document (#id) or be a data:image/png, jpeg, gif or webp URI',
      'is not an allowed SVG image: <animate> may not animate "href"',
      'is not an allowed SVG image: <iframe> is not an allowed SVG element',
      'is not an allowed SVG image: CSS at-rule @import is not allowed',
    ]);
  });

  it.each([
    ['a script', svg('<script>alert(1)</script>'), '<script> is not an allowed SVG element'],
    ['foreignObject', svg('<foreignObject/>'), '<foreignObject> is not an allowed SVG element'],
    ['an event handler', svg('<rect ONLOAD="x()"/>'), 'event handler attributes are not allowed (ONLOAD)'],
    ['an unknown attribute', svg('<rect src="#a"/>'), 'attribute src is not allowed on <rect>'],
    [
      'XHTML',
      svg('<h:p xmlns:h="http://www.w3.org/1999/xhtml"/>'),
      '<h:p> in the XHTML namespace is not allowed (only SVG and editor metadata)',
    ],
    [
      'a nested SVG document',
      svg('<image href="data:image/svg+xml,x"/>'),
      'href must not embed another SVG document (data:image/svg+xml)',
    ],
    ['a DOCTYPE', `<!DOCTYPE svg>${svg('')}`, 'Document type declarations are not allowed'],
    [
      'a processing instruction',
      `<?xml-stylesheet href="x.css"?>${svg('')}`,
      'processing instructions are not allowed (<?xml-stylesheet ...?>)',
    ],
    [
      'an external url() in a presentation attribute',
      svg('<rect fill="url(x.svg#p)"/>'),
      'CSS url() must point inside the document (#id)',
    ],
    [
      'a CSS function that fetches',
      svg('<style>svg{background:image-set("x.png" 1x)}</style>'),
      'CSS function image-set() is not allowed',
    ],
    [
      'a javascript: value outside a link',
      svg('<rect id="javascript:x"/>'),
      'id must not carry a javascript:, vbscript: or data: URL',
    ],
    [
      'an SVG without the SVG namespace',
      '<svg><rect/></svg>',
      'the root element must be <svg> in the SVG namespace (http://www.w3.org/2000/svg)',
    ],
  ])('names what is wrong: %s', (_name, doc, problem) => {
    expect(checkSvg(doc)).toEqual({ ok: false, malformed: false, problem });
  });

  it.each([
    ['a fragment href', svg('<use href="#a"/>')],
    ['a fragment xlink:href with surrounding whitespace', svg('<use xlink:href=" #a&#x0A;"/>')],
    [
      'an embedded PNG, JPEG, GIF and WebP',
      ['png', 'jpeg', 'gif', 'webp'].map((t) => `<image href="data:image/${t};base64,AAAA"/>`).join(''),
    ],
    [
      'url(#id) in every quoting',
      svg(
        '<style>.a{fill:url(#g)}.b{fill:url("#g")}.c{fill:url( \'#g\' )}</style><rect fill="url(#g)" style="stroke:url(#g)"/>',
      ),
    ],
    [
      'CSS comments, media queries and keyframes',
      svg(
        '<style>/* brand */ @media (min-width: 10px) { .a { fill: rgb(1 2 3 / 50%) } } @keyframes k { from { opacity: 0 } }</style>',
      ),
    ],
    [
      'harmless animations',
      svg(
        '<rect><animate attributeName="x" from="0" to="5" dur="1s"/><set attributeName="visibility" to="hidden"/></rect>',
      ),
    ],
    ['data-* and aria-* attributes', svg('<g data-name="Layer 1" aria-hidden="true"/>')],
    ['a comment', svg('<!-- Generator: Sketch 64 (93537) - https://sketch.com --><rect/>')],
  ])('accepts %s', (_name, doc) => {
    const full = doc.startsWith('<svg') ? doc : svg(doc);
    expect(checkSvg(full)).toEqual({ ok: true });
  });

  it('reports malformed XML as such', () => {
    expect(checkSvg(svg('<g>'))).toMatchObject({ ok: false, malformed: true });
    expect(checkSvg(svg('<text>&nbsp;</text>'))).toMatchObject({ ok: false, malformed: true });
  });
});
