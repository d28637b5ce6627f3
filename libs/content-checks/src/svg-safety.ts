import { cssProblem } from './css-safety';
import { hasAnyScheme, hasScriptScheme, referenceProblem } from './references';
import {
  ANIMATABLE,
  ANIMATION_ELEMENTS,
  ANIMATION_HELPER_ELEMENTS,
  ANIMATION_VALUE_ATTRIBUTES,
  EDITOR_NAMESPACES,
  FREE_PREFIXES,
  HTML_ELEMENT_NAMES,
  SVG_ATTRIBUTES,
  SVG_ELEMENTS,
  SVG_NAMESPACE,
  TEXT_ATTRIBUTES,
  XLINK_ATTRIBUTES,
  XLINK_NAMESPACE,
  XML_ATTRIBUTES,
} from './svg-vocabulary';
import { readXml, XML_NAMESPACE, XMLNS_NAMESPACE, type XmlAttribute, type XmlElement } from './xml';

/*
 * The SVG image rule. Tenants' SVGs are shown on sign-in pages, so an SVG is accepted only when
 * everything in it is on the allow-list of svg-vocabulary.ts and nothing in it can run script,
 * fetch anything or turn into HTML markup; otherwise it is refused whole (never cleaned: what is
 * stored is exactly what was sent). The parser (saxes) decodes entities before any value is
 * looked at; DOCTYPEs are refused by readXml.
 */

export type SvgCheck = { ok: true } | { ok: false; malformed: boolean; problem: string };

const XHTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

const isSvg = (el: XmlElement, local?: string) =>
  el.uri === SVG_NAMESPACE && (local === undefined || el.local === local);
const isEditor = (uri: string) => EDITOR_NAMESPACES.has(uri);
const hasFreePrefix = (name: string) => FREE_PREFIXES.some((p) => name.startsWith(p));

function namespaceLabel(uri: string): string {
  if (uri === '') return 'no namespace';
  if (uri === XHTML_NAMESPACE) return 'the XHTML namespace';
  return `namespace ${uri}`;
}

/** Whether an attribute is a link the browser follows or loads. */
function isReference(attr: XmlAttribute): boolean {
  const local = attr.local.toLowerCase();
  if (local === 'src') return true;
  return local === 'href' && (attr.uri === '' || attr.uri === XLINK_NAMESPACE || isEditor(attr.uri));
}

/** Checks that hold for every attribute of every element, whatever its namespace. */
function anyAttributeProblem(attr: XmlAttribute): string | undefined {
  if (attr.uri === XMLNS_NAMESPACE)
    return hasScriptScheme(attr.value) ? `${attr.name} must not carry a script URL` : undefined;
  if (/^on/i.test(attr.local)) return `event handler attributes are not allowed (${attr.name})`;
  if (isReference(attr)) {
    const problem = referenceProblem(attr.value, true);
    return problem && `${attr.name} ${problem}`;
  }
  if (hasScriptScheme(attr.value)) return `${attr.name} must not carry a javascript:, vbscript: or data: URL`;
  if (attr.local === 'style' && attr.uri === '') return cssProblem(attr.value);
  return undefined;
}

/** Attributes in a namespace, on any element: `xmlns:` and editor metadata are free, `xlink:` and `xml:` must be known. */
function namespacedAttributeProblem(attr: XmlAttribute): string | undefined {
  if (attr.uri === XMLNS_NAMESPACE || isEditor(attr.uri)) return undefined;
  if (attr.uri === XLINK_NAMESPACE)
    return XLINK_ATTRIBUTES.has(attr.local) ? undefined : `attribute ${attr.name} is not allowed`;
  if (attr.uri === XML_NAMESPACE)
    return XML_ATTRIBUTES.has(attr.local) ? undefined : `attribute ${attr.name} is not allowed`;
  return `attribute ${attr.name} in ${namespaceLabel(attr.uri)} is not allowed`;
}

/** Attributes of an SVG element: on the allow-list, and CSS-valued ones free of fetches. */
function svgAttributeProblem(el: XmlElement, attr: XmlAttribute): string | undefined {
  if (attr.uri !== '') return namespacedAttributeProblem(attr);
  if (!SVG_ATTRIBUTES.has(attr.local) && !hasFreePrefix(attr.local))
    return `attribute ${attr.name} is not allowed on <${el.name}>`;
  if (attr.local === 'href' || attr.local === 'style' || TEXT_ATTRIBUTES.has(attr.local) || hasFreePrefix(attr.local))
    return undefined;
  return cssProblem(attr.value);
}

/** Attributes of an editor-metadata element: its own unprefixed ones are free. */
function editorAttributeProblem(attr: XmlAttribute): string | undefined {
  return attr.uri === '' ? undefined : namespacedAttributeProblem(attr);
}

/** `set`/`animate`/...: only harmless attributes may be animated, and never to a URL. */
function animationProblem(el: XmlElement): string | undefined {
  const target = el.attributes.find((a) => a.uri === '' && a.local === 'attributeName');
  if (target === undefined) {
    if (el.local !== 'animateMotion') return `<${el.name}> must name the attribute it animates (attributeName)`;
  } else if (!ANIMATABLE.has(target.value.trim())) {
    return `<${el.name}> may not animate ${JSON.stringify(target.value)}`;
  }
  for (const attr of el.attributes) {
    if (attr.uri === '' && ANIMATION_VALUE_ATTRIBUTES.has(attr.local) && hasAnyScheme(attr.value))
      return `<${el.name}> ${attr.local} must not carry a URL scheme`;
  }
  return undefined;
}

function elementProblem(el: XmlElement, parent: XmlElement | undefined): string | undefined {
  if (parent && isSvg(parent, 'style')) return '<style> must contain only CSS text';
  let attributeRule: (attr: XmlAttribute) => string | undefined;
  if (isSvg(el)) {
    const animation = ANIMATION_ELEMENTS.has(el.local);
    if (!SVG_ELEMENTS.has(el.local) && !animation && !ANIMATION_HELPER_ELEMENTS.has(el.local))
      return `<${el.name}> is not an allowed SVG element`;
    if (animation) {
      const problem = animationProblem(el);
      if (problem) return problem;
    }
    attributeRule = (attr) => svgAttributeProblem(el, attr);
  } else if (isEditor(el.uri)) {
    if (el.prefix === '' && HTML_ELEMENT_NAMES.has(el.local.toLowerCase()))
      return `<${el.name}> is not allowed (an HTML element name)`;
    attributeRule = editorAttributeProblem;
  } else {
    return `<${el.name}> in ${namespaceLabel(el.uri)} is not allowed (only SVG and editor metadata)`;
  }
  for (const attr of el.attributes) {
    const problem = anyAttributeProblem(attr) ?? attributeRule(attr);
    if (problem) return problem;
  }
  return undefined;
}

/** Why `doc` is not a safe SVG image; `malformed` when it is not even well-formed XML. */
export function checkSvg(doc: string): SvgCheck {
  let css: string[] | undefined; // text of the <style> element being read
  const read = readXml(doc, {
    element(el, parent) {
      if (!parent && !isSvg(el, 'svg')) return `the root element must be <svg> in the SVG namespace (${SVG_NAMESPACE})`;
      const problem = elementProblem(el, parent);
      if (!problem && isSvg(el, 'style')) css = [];
      return problem;
    },
    text(text) {
      css?.push(text);
      return undefined;
    },
    cdata(text, parent) {
      if (!parent || !isSvg(parent, 'style')) return 'CDATA sections are only allowed inside <style>';
      css?.push(text);
      return undefined;
    },
    close(el) {
      if (!isSvg(el, 'style') || !css) return undefined;
      const text = css.join('');
      css = undefined;
      return cssProblem(text);
    },
    // HTML ends a comment at the first ">" (`<!-->`, `--!>`): keep comments free of markup characters.
    comment: (text) => (/[<>]/.test(text) ? 'comments must not contain "<" or ">"' : undefined),
    processingInstruction: (target) => `processing instructions are not allowed (<?${target} ...?>)`,
  });
  if (read.ok) return { ok: true };
  return { ok: false, malformed: read.malformed, problem: read.error };
}
