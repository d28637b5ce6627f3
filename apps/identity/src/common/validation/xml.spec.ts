import { checkXml, localName } from './xml';

describe('checkXml (well-formedness)', () => {
  it.each([
    ['a minimal document', '<a/>'],
    ['a declaration, comments, PIs, CDATA and references', '<?xml version="1.0"?>\n<!-- c --><?pi x?><r a="1" b=\'&amp;&#60;&#x3C;\'><![CDATA[<not markup>]]>x &lt; y<c/></r><!-- after -->'],
    ['prefixed names', '<md:EntityDescriptor xmlns:md="urn:x"><md:Child/></md:EntityDescriptor>'],
    ['a byte-order mark', '\uFEFF<a></a>'],
  ])('accepts %s', (_name, xml) => {
    expect(checkXml(xml)).toMatchObject({ ok: true });
  });

  it.each([
    ['an unclosed element', '<a><b></a>', /does not match/],
    ['a missing end tag', '<a><b/>', /not closed/],
    ['two roots', '<a/><b/>', /after the root/],
    ['text outside the root', 'hello', /root element/],
    ['an unquoted attribute', '<a b=c/>', /quoted/],
    ['a duplicate attribute', '<a b="1" b="2"/>', /Duplicate/],
    ['an undefined entity', '<a>&nbsp;</a>', /entity reference/],
    ['a bare ampersand', '<a>fish & chips</a>', /entity reference/],
    ['"<" in an attribute', '<a b="<"/>', /not allowed/],
    ['a DTD (no entity expansion tricks)', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', /Document type/],
    ['a late XML declaration', '<a/><?xml version="1.0"?>', /declaration/],
    ['"--" inside a comment', '<a><!-- a -- b --></a>', /--/],
    ['an unterminated comment', '<a><!-- </a>', /Unterminated/],
    ['attributes without whitespace', '<a b="1"c="2"/>', /whitespace/],
  ])('refuses %s', (_name, xml, message) => {
    const res = checkXml(xml);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error).toMatch(message);
  });

  it('reports the root and every element with its attributes', () => {
    const res = checkXml('<svg xmlns="http://www.w3.org/2000/svg"><g id="x"><rect/></g></svg>');
    expect(res.ok && res.root.name).toBe('svg');
    expect(res.ok && res.elements.map((e) => e.name)).toEqual(['svg', 'g', 'rect']);
    expect(res.ok && res.elements[1].attributes).toEqual([{ name: 'id', value: 'x' }]);
  });

  it('refuses absurd nesting instead of exhausting the stack', () => {
    expect(checkXml('<a>'.repeat(10_000) + '</a>'.repeat(10_000)).ok).toBe(false);
  });

  it('localName strips a prefix', () => {
    expect(localName('md:EntityDescriptor')).toBe('EntityDescriptor');
    expect(localName('svg')).toBe('svg');
  });
});
