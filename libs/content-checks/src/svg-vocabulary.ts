/**
 * The allow-list of the SVG image rule: the SVG 1.1 / SVG 2 elements and attributes a static or
 * gently animated logo needs, and the namespaces design tools write their own bookkeeping in.
 * Anything not listed here is refused. Left out on purpose: `script`, `foreignObject` (HTML
 * inside SVG), `iframe`/`embed`/`object`/`video`/`audio`/`canvas`, SVG fonts and `font-face-uri`,
 * `cursor`, `color-profile`, `tref`, `discard`, `handler`/`listener`, and the attributes `xml:base`,
 * `ping`, `requiredExtensions`, `contentScriptType` and every event handler (`on*`).
 */

export const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
export const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';

const words = (text: string) => new Set(text.trim().split(/\s+/));

/**
 * SVG elements allowed anywhere in the document (names are case-sensitive, as in XML). The `flow*`
 * elements are Inkscape 0.92's flowed text (an SVG 1.2 draft browsers do not render).
 */
export const SVG_ELEMENTS = words(`
  svg g defs symbol use switch a view title desc metadata style
  path rect circle ellipse line polyline polygon text tspan textPath image
  linearGradient radialGradient stop pattern clipPath mask marker
  solidcolor hatch hatchpath meshgradient meshrow meshpatch
  filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting
  feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR
  feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight
  feSpecularLighting feSpotLight feTile feTurbulence
  flowRoot flowRegion flowPara flowSpan flowDiv
`);

/** Animation elements: allowed, but only when they animate a harmless attribute (see ANIMATABLE). */
export const ANIMATION_ELEMENTS = words('animate animateColor animateMotion animateTransform set');
/** `mpath` names the motion path of `animateMotion` by reference. */
export const ANIMATION_HELPER_ELEMENTS = words('mpath');

/** Presentation attributes (SVG 1.1 §M.2 plus the SVG 2 / CSS additions editors write). */
const PRESENTATION = `
  alignment-baseline baseline-shift clip clip-path clip-rule color color-interpolation
  color-interpolation-filters color-rendering cursor direction display dominant-baseline
  enable-background fill fill-opacity fill-rule filter flood-color flood-opacity font font-family
  font-kerning font-size font-size-adjust font-stretch font-style font-variant font-weight
  glyph-orientation-horizontal glyph-orientation-vertical image-rendering isolation kerning
  letter-spacing lighting-color line-height marker marker-end marker-mid marker-start mask
  mask-type mix-blend-mode opacity overflow paint-order pointer-events shape-rendering
  solid-color solid-opacity stop-color stop-opacity stroke stroke-dasharray stroke-dashoffset
  stroke-linecap stroke-linejoin stroke-miterlimit stroke-opacity stroke-width text-anchor
  text-decoration text-rendering transform transform-box transform-origin unicode-bidi
  vector-effect visibility white-space word-spacing writing-mode
`;

/** Geometry and element-specific attributes that animations may also target. */
const GEOMETRY = `
  x y x1 y1 x2 y2 cx cy r rx ry fx fy fr width height d points pathLength offset dx dy rotate
  viewBox preserveAspectRatio gradientTransform patternTransform startOffset textLength
  stdDeviation baseFrequency
`;

/** Attributes an `animate`/`set`/`animateTransform` may name in `attributeName`. */
export const ANIMATABLE = words(`${PRESENTATION} ${GEOMETRY}`);

/** Unprefixed attributes allowed on SVG elements (plus any `data-*` and `aria-*`). */
export const SVG_ATTRIBUTES = words(`
  ${PRESENTATION} ${GEOMETRY}
  id class style lang tabindex role focusable
  version baseProfile zoomAndPan requiredFeatures systemLanguage
  href target type media title
  gradientUnits spreadMethod patternUnits patternContentUnits clipPathUnits maskUnits
  maskContentUnits filterUnits primitiveUnits filterRes markerUnits markerWidth markerHeight
  refX refY orient lengthAdjust method spacing side path viewTarget
  in in2 result mode operator k1 k2 k3 k4 values tableValues slope intercept amplitude exponent
  kernelMatrix kernelUnitLength order divisor bias targetX targetY preserveAlpha edgeMode
  surfaceScale diffuseConstant specularConstant specularExponent scale xChannelSelector
  yChannelSelector radius azimuth elevation z pointsAtX pointsAtY pointsAtZ limitingConeAngle
  numOctaves seed stitchTiles
  attributeName attributeType begin dur end min max restart repeatCount repeatDur calcMode
  keyTimes keySplines keyPoints from to by additive accumulate origin
`);

export const FREE_PREFIXES = ['data-', 'aria-'];

/** Attributes whose value is free text rather than a CSS value (not checked as CSS). */
export const TEXT_ATTRIBUTES = words('id class lang role title type media target systemLanguage requiredFeatures');

/** Attributes of animation elements that carry the values written into the target attribute. */
export const ANIMATION_VALUE_ATTRIBUTES = words('from to by values');

/** xlink attributes; only `xlink:href` is a reference, checked like `href`. */
export const XLINK_ATTRIBUTES = words('href title type show actuate role arcrole');

/** `xml:` attributes (`xml:base` is not one of them: it would re-root every reference). */
export const XML_ATTRIBUTES = words('space lang');

/**
 * Namespaces design tools keep their own metadata in. Browsers render none of it; elements and
 * attributes in these namespaces are allowed, still subject to the checks that apply everywhere
 * (no event handlers, no script schemes, references only to `#fragments`, no HTML element names).
 */
export const EDITOR_NAMESPACES = new Set([
  // Inkscape (and the Sodipodi heritage it still writes)
  'http://www.inkscape.org/namespaces/inkscape',
  'http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd',
  'http://inkscape.sourceforge.net/DTD/sodipodi-0.dtd',
  'http://www.openswatchbook.org/uri/2009/osb',
  // RDF, Dublin Core and Creative Commons licence metadata (Inkscape's Document Properties)
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  'http://purl.org/dc/elements/1.1/',
  'http://purl.org/dc/terms/',
  'http://creativecommons.org/ns#',
  'http://web.resource.org/cc/',
  // Adobe Illustrator
  'http://ns.adobe.com/AdobeIllustrator/10.0/',
  'http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/',
  'http://ns.adobe.com/Extensibility/1.0/',
  'http://ns.adobe.com/Graphs/1.0/',
  'http://ns.adobe.com/SaveForWeb/1.0/',
  'http://ns.adobe.com/Variables/1.0/',
  'http://ns.adobe.com/ImageReplacement/1.0/',
  'adobe:ns:meta/',
  'http://ns.adobe.com/xap/1.0/',
  'http://ns.adobe.com/xap/1.0/mm/',
  'http://ns.adobe.com/xap/1.0/sType/ResourceRef#',
  'http://ns.adobe.com/xap/1.0/sType/ResourceEvent#',
  // Sketch, Affinity Designer, CorelDRAW, Boxy SVG
  'http://www.bohemiancoding.com/sketch/ns',
  'http://www.serif.com/',
  'http://www.corel.com/coreldraw/odm/2003',
  'https://boxy-svg.com',
]);

/**
 * HTML element names. An element outside the SVG namespace written without a prefix would be read
 * as this HTML element if the SVG were ever pasted into an HTML page, so such names are refused.
 */
export const HTML_ELEMENT_NAMES = words(`
  a abbr address applet area article aside audio b base basefont bdi bdo bgsound big blink
  blockquote body br button canvas caption center cite code col colgroup data datalist dd del
  details dfn dialog dir div dl dt em embed fieldset figcaption figure font footer form frame
  frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe image img input ins isindex kbd
  keygen label legend li link listing main map mark marquee math menu meta meter nav nobr noembed
  noframes noscript object ol optgroup option output p param picture plaintext portal pre progress
  q rb rp rt rtc ruby s samp script search section select slot small source span strike strong
  style sub summary sup svg table tbody td template textarea tfoot th thead time title tr track tt
  u ul var video wbr xmp
`);
