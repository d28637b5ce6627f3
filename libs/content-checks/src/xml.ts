import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';

/**
 * Reads an XML document with saxes (a strict, namespace-aware XML 1.0 parser) and hands every
 * node to a visitor that may refuse it. Document type declarations are always refused: no DTD is
 * ever read, so there are no entity expansion (billion laughs) or external entity (XXE) tricks,
 * and any entity other than the five predefined ones is a well-formedness error.
 */

export const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';
export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

export interface XmlAttribute {
  /** As written, e.g. `xlink:href`. */
  name: string;
  prefix: string;
  local: string;
  /** Resolved namespace URI ('' for an unprefixed attribute). */
  uri: string;
  /** After entity decoding and attribute-value normalisation. */
  value: string;
}

export interface XmlElement {
  /** As written, e.g. `sodipodi:namedview`. */
  name: string;
  prefix: string;
  local: string;
  /** Resolved namespace URI ('' when in no namespace). */
  uri: string;
  attributes: XmlAttribute[];
}

/**
 * Hooks return a problem to stop reading (the document is refused), or undefined to go on.
 * `parent` is the innermost open element (undefined outside the root).
 */
export interface XmlVisitor {
  element?(element: XmlElement, parent: XmlElement | undefined): string | undefined;
  text?(text: string, parent: XmlElement | undefined): string | undefined;
  cdata?(text: string, parent: XmlElement | undefined): string | undefined;
  comment?(text: string): string | undefined;
  processingInstruction?(target: string, body: string): string | undefined;
  /** After the element's content (self-closing elements included). */
  close?(element: XmlElement): string | undefined;
}

export type XmlRead = { ok: true; root: XmlElement } | { ok: false; malformed: boolean; error: string };

const MAX_DEPTH = 256;

/** A problem raised by the visitor (as opposed to a well-formedness error of saxes). */
class Refusal extends Error {}

function toElement(tag: SaxesTagNS): XmlElement {
  const attributes = Object.values(tag.attributes as Record<string, SaxesAttributeNS>).map((a) => ({
    name: a.name,
    prefix: a.prefix,
    local: a.local,
    uri: a.uri,
    value: a.value,
  }));
  return { name: tag.name, prefix: tag.prefix, local: tag.local, uri: tag.uri, attributes };
}

export function readXml(input: string, visitor: XmlVisitor = {}): XmlRead {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  const refuse = (problem: string | undefined) => {
    if (problem !== undefined) throw new Refusal(problem);
  };
  const parent = () => open[open.length - 1];

  parser.on('error', (err) => {
    throw err;
  });
  parser.on('doctype', () => refuse('Document type declarations are not allowed'));
  parser.on('opentag', (tag) => {
    const element = toElement(tag);
    refuse(visitor.element?.(element, parent()));
    root ??= element;
    if (tag.isSelfClosing) {
      refuse(visitor.close?.(element));
    } else {
      open.push(element);
      if (open.length > MAX_DEPTH) refuse('Elements are nested too deeply');
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.isSelfClosing) return;
    const element = open.pop();
    if (element) refuse(visitor.close?.(element));
  });
  parser.on('text', (text) => refuse(visitor.text?.(text, parent())));
  parser.on('cdata', (text) => refuse(visitor.cdata?.(text, parent())));
  parser.on('comment', (text) => refuse(visitor.comment?.(text)));
  parser.on('processinginstruction', (pi) => refuse(visitor.processingInstruction?.(pi.target, pi.body)));

  try {
    parser.write(input.startsWith('\uFEFF') ? input.slice(1) : input).close();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, malformed: !(err instanceof Refusal), error: message };
  }
  if (!root) return { ok: false, malformed: true, error: 'No root element' };
  return { ok: true, root };
}
