import { readXml, XML_NAMESPACE, type XmlElement } from './xml';

describe('readXml (well-formedness, on saxes)', () => {
  it.each([
    ['a minimal document', '<a/>'],
    [
      'a declaration, comments, PIs, CDATA and references',
      '<?xml version="1.0"?>\n<!-- c --><?pi x?><r a="1" b=\'&amp;&#60;&#x3C;\'><![CDATA[<not markup>]]>x &lt; y<c/></r><!-- after -->',
    ],
    ['prefixed names', '<md:EntityDescriptor xmlns:md="urn:x"><md:Child/></md:EntityDescriptor>'],
    ['a byte-order mark', '\uFEFF<a></a>'],
  ])('accepts %s', (_name, xml) => {
    expect(readXml(xml)).toMatchObject({ ok: true });
  });

  it.each([
    ['an unclosed element', '<a><b></a>'],
    ['a missing end tag', '<a><b/>'],
    ['two roots', '<a/><b/>'],
    ['text outside the root', 'hello'],
    ['an empty document', ''],
    ['an unquoted attribute', '<a b=c/>'],
    ['a duplicate attribute', '<a b="1" b="2"/>'],
    ['an undefined entity', '<a>&nbsp;</a>'],
    ['a bare ampersand', '<a>fish & chips</a>'],
    ['"<" in an attribute', '<a b="<"/>'],
    ['a late XML declaration', '<a/><?xml version="1.0"?>'],
    ['"--" inside a comment', '<a><!-- a -- b --></a>'],
    ['an unterminated comment', '<a><!-- </a>'],
    ['attributes without whitespace', '<a b="1"c="2"/>'],
    ['an unbound namespace prefix', '<a><x:b/></a>'],
  ])('refuses %s as malformed', (_name, xml) => {
    expect(readXml(xml)).toMatchObject({ ok: false, malformed: true });
  });

  it.each([
    [
      'an internal subset with entities (billion laughs)',
      '<!DOCTYPE a [<!ENTITY x "y"><!ENTITY y "&x;&x;">]><a>&y;</a>',
    ],
    ['an external entity (XXE)', '<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>'],
    [
      'a bare public DOCTYPE',
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg/>',
    ],
  ])('refuses %s: no DTD is ever read', (_name, xml) => {
    expect(readXml(xml)).toEqual({ ok: false, malformed: false, error: 'Document type declarations are not allowed' });
  });

  it('resolves namespaces and decodes entities before the visitor sees them', () => {
    const seen: XmlElement[] = [];
    const res = readXml(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:l="http://www.w3.org/1999/xlink"><a l:href="&#106;s" xml:lang="en"/></svg>',
      {
        element: (el) => void seen.push(el),
      },
    );
    expect(res).toMatchObject({ ok: true, root: { local: 'svg', uri: 'http://www.w3.org/2000/svg' } });
    expect(seen[1]).toMatchObject({ name: 'a', local: 'a', uri: 'http://www.w3.org/2000/svg' });
    expect(seen[1].attributes).toEqual([
      { name: 'l:href', prefix: 'l', local: 'href', uri: 'http://www.w3.org/1999/xlink', value: 'js' },
      { name: 'xml:lang', prefix: 'xml', local: 'lang', uri: XML_NAMESPACE, value: 'en' },
    ]);
  });

  it('stops at the first problem a visitor reports, with every kind of node', () => {
    const doc = '<r><?pi body?><!-- note --><e/>text<![CDATA[raw]]></r>';
    const calls: string[] = [];
    const res = readXml(doc, {
      element: (el, parent) => void calls.push(`element ${el.name} in ${parent?.name}`),
      processingInstruction: (target, body) => void calls.push(`pi ${target} ${body}`),
      comment: (text) => void calls.push(`comment ${text.trim()}`),
      text: (text) => void calls.push(`text ${text}`),
      cdata: (text) => `no CDATA (${text})`,
      close: (el) => void calls.push(`close ${el.name}`),
    });
    expect(res).toEqual({ ok: false, malformed: false, error: 'no CDATA (raw)' });
    expect(calls).toEqual([
      'element r in undefined',
      'pi pi body',
      'comment note',
      'element e in r',
      'close e',
      'text text',
    ]);
  });

  it('refuses absurd nesting instead of exhausting the stack', () => {
    expect(readXml('<a>'.repeat(10_000) + '</a>'.repeat(10_000))).toMatchObject({
      ok: false,
      error: 'Elements are nested too deeply',
    });
  });
});
