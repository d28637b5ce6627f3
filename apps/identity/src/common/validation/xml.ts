/**
 * A small XML well-formedness check (XML 1.0 syntax, no DTDs): enough to refuse broken SAML
 * metadata and SVG uploads without pulling in an XML parser. It does not resolve namespaces or
 * validate against schemas; document type declarations are refused outright (no entity tricks).
 */
export interface XmlElement {
  name: string;
  attributes: { name: string; value: string }[];
}

export type XmlCheck = { ok: true; root: XmlElement; elements: XmlElement[] } | { ok: false; error: string };

const NAME = /[A-Za-z_][A-Za-z0-9._-]*(?::[A-Za-z_][A-Za-z0-9._-]*)?/y;
const REFERENCE = /&(?:amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/y;
const MAX_DEPTH = 256;

/** Local part of a possibly prefixed name (`md:EntityDescriptor` → `EntityDescriptor`). */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

class XmlScanner {
  pos = 0;
  constructor(private readonly s: string) {}

  fail(message: string): never {
    const before = this.s.slice(0, this.pos);
    const line = before.split('\n').length;
    throw new Error(`${message} (line ${line})`);
  }

  done(): boolean {
    return this.pos >= this.s.length;
  }

  startsWith(token: string): boolean {
    return this.s.startsWith(token, this.pos);
  }

  skipSpace(): void {
    while (!this.done() && ' \t\r\n'.includes(this.s[this.pos])) this.pos++;
  }

  skipUntil(terminator: string, what: string): string {
    const end = this.s.indexOf(terminator, this.pos);
    if (end < 0) this.fail(`Unterminated ${what}`);
    const body = this.s.slice(this.pos, end);
    this.pos = end + terminator.length;
    return body;
  }

  name(): string {
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.s);
    if (!m) this.fail('Expected a name');
    this.pos += m[0].length;
    return m[0];
  }

  /** Character data up to the next `<`, checking references. */
  text(): void {
    while (!this.done() && this.s[this.pos] !== '<') {
      if (this.s[this.pos] === '&') this.reference();
      else this.pos++;
    }
  }

  reference(): void {
    REFERENCE.lastIndex = this.pos;
    const m = REFERENCE.exec(this.s);
    if (!m) this.fail('Invalid or undefined entity reference');
    this.pos += m[0].length;
  }

  /** Comments and processing instructions (allowed anywhere between markup). */
  misc(): boolean {
    if (this.startsWith('<!--')) {
      this.pos += 4;
      const body = this.skipUntil('-->', 'comment');
      if (body.includes('--')) this.fail('"--" is not allowed inside a comment');
      return true;
    }
    if (this.startsWith('<?')) {
      this.pos += 2;
      const target = this.name();
      if (target.toLowerCase() === 'xml') this.fail('The XML declaration must come first');
      this.skipUntil('?>', 'processing instruction');
      return true;
    }
    if (this.startsWith('<!DOCTYPE') || this.startsWith('<!ENTITY')) this.fail('Document type declarations are not allowed');
    return false;
  }

  startTag(): { element: XmlElement; selfClosing: boolean } {
    this.pos++; // <
    const name = this.name();
    const attributes: XmlElement['attributes'] = [];
    for (;;) {
      const hadSpace = this.s[this.pos] !== undefined && ' \t\r\n'.includes(this.s[this.pos]);
      this.skipSpace();
      if (this.startsWith('/>')) {
        this.pos += 2;
        return { element: { name, attributes }, selfClosing: true };
      }
      if (this.startsWith('>')) {
        this.pos++;
        return { element: { name, attributes }, selfClosing: false };
      }
      if (this.done()) this.fail(`Unterminated start tag <${name}>`);
      if (!hadSpace) this.fail(`Expected whitespace before an attribute of <${name}>`);
      const attr = this.name();
      if (attributes.some((a) => a.name === attr)) this.fail(`Duplicate attribute "${attr}" on <${name}>`);
      this.skipSpace();
      if (this.s[this.pos] !== '=') this.fail(`Attribute "${attr}" needs a value`);
      this.pos++;
      this.skipSpace();
      const quote = this.s[this.pos];
      if (quote !== '"' && quote !== "'") this.fail(`Attribute "${attr}" value must be quoted`);
      this.pos++;
      const start = this.pos;
      while (!this.done() && this.s[this.pos] !== quote) {
        if (this.s[this.pos] === '<') this.fail(`"<" is not allowed in attribute "${attr}"`);
        if (this.s[this.pos] === '&') this.reference();
        else this.pos++;
      }
      if (this.done()) this.fail(`Unterminated value of attribute "${attr}"`);
      attributes.push({ name: attr, value: this.s.slice(start, this.pos) });
      this.pos++;
    }
  }
}

export function checkXml(input: string): XmlCheck {
  const sc = new XmlScanner(input.startsWith('\uFEFF') ? input.slice(1) : input);
  const elements: XmlElement[] = [];
  try {
    if (sc.startsWith('<?xml')) {
      sc.pos += 5;
      sc.skipUntil('?>', 'XML declaration');
    }
    // Prolog
    for (;;) {
      sc.skipSpace();
      if (!sc.misc()) break;
    }
    if (!sc.startsWith('<') || sc.startsWith('</') || sc.startsWith('<!')) sc.fail('Expected the root element');
    const stack: string[] = [];
    let root: XmlElement | undefined;
    do {
      if (sc.startsWith('</')) {
        sc.pos += 2;
        const name = sc.name();
        sc.skipSpace();
        if (!sc.startsWith('>')) sc.fail(`Malformed end tag </${name}>`);
        sc.pos++;
        const open = stack.pop();
        if (open !== name) sc.fail(`End tag </${name}> does not match <${open}>`);
      } else if (sc.startsWith('<![CDATA[')) {
        if (stack.length === 0) sc.fail('CDATA outside the root element');
        sc.pos += 9;
        sc.skipUntil(']]>', 'CDATA section');
      } else if (sc.misc()) {
        // comment or processing instruction
      } else if (sc.startsWith('<!')) {
        sc.fail('Unexpected markup declaration');
      } else if (sc.startsWith('<')) {
        const { element, selfClosing } = sc.startTag();
        elements.push(element);
        root ??= element;
        if (!selfClosing) {
          stack.push(element.name);
          if (stack.length > MAX_DEPTH) sc.fail('Elements are nested too deeply');
        }
      } else {
        sc.text();
      }
    } while (stack.length > 0 && !sc.done());
    if (stack.length > 0) sc.fail(`Element <${stack[stack.length - 1]}> is not closed`);
    // Epilog
    for (;;) {
      sc.skipSpace();
      if (!sc.misc()) break;
    }
    if (!sc.done()) sc.fail('Content after the root element');
    return { ok: true, root: root as XmlElement, elements };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
