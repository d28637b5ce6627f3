/**
 * Bounds on the shape of JSON request bodies, checked on the raw bytes before JSON.parse and
 * before validation. class-transformer and class-validator recurse once per nesting level (a few
 * thousand levels overflow the stack) and slow down badly on objects with tens of thousands of
 * keys, so such bodies are refused up front instead of reaching them.
 */

/** Deepest nesting of objects/arrays accepted. Real bodies nest about 8 levels (alert batches). */
export const MAX_JSON_DEPTH = 32;
/** Most members (keys of one object or items of one array) accepted in a single container. */
export const MAX_JSON_MEMBERS = 10_000;
/**
 * Most objects and arrays in one body. Validating a nested object that fails costs ~50 µs and `{}`
 * is 3 bytes: 300 KB of them kept a process busy for 9 s. A real 1 MB alert batch holds about
 * 16,000 (one per 65 bytes); at this limit the worst body costs about 2.5 s.
 */
export const MAX_JSON_CONTAINERS = 50_000;

export interface JsonShapeLimits {
  maxDepth: number;
  maxMembers: number;
  maxContainers: number;
}

export const JSON_SHAPE_LIMITS: JsonShapeLimits = {
  maxDepth: MAX_JSON_DEPTH,
  maxMembers: MAX_JSON_MEMBERS,
  maxContainers: MAX_JSON_CONTAINERS,
};

/** A body refused for its shape: answered 400 `invalid_request` with this message. */
export class JsonShapeError extends Error {
  /** body-parser keeps `type` on errors thrown by its verify hook. */
  readonly type = 'entity.shape.refused';
  readonly status = 400;
  readonly expose = true;

  constructor(message: string) {
    super(message);
    this.name = 'JsonShapeError';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Throws JsonShapeError when the UTF-8 JSON text nests deeper than `maxDepth`, a container holds
 * more than `maxMembers` members or there are more than `maxContainers` objects and arrays.
 * One pass, no recursion, memory bounded by `maxDepth`.
 * In UTF-8 every byte of a multi-byte character is >= 0x80, so the ASCII structural characters
 * below can only be what they look like; inside strings only `\` (skip the escaped byte) and the
 * closing `"` matter. The text need not be valid JSON: JSON.parse judges that afterwards.
 */
export function assertJsonShape(utf8: Uint8Array, limits: JsonShapeLimits = JSON_SHAPE_LIMITS): void {
  const { maxDepth, maxMembers, maxContainers } = limits;
  // commas[d] = separators seen so far in the open container at depth d (members = commas + 1).
  const commas = new Uint32Array(maxDepth + 1);
  let depth = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < utf8.length; i++) {
    const c = utf8[i];
    if (inString) {
      if (c === BACKSLASH) {
        // PostgreSQL text and jsonb cannot hold U+0000: refuse it here rather than fail at storage.
        if (isEscapedNul(utf8, i))
          throw new JsonShapeError(
            'The request body contains the character U+0000 (\\u0000), which text fields cannot hold',
          );
        i++;
      } else if (c === QUOTE) inString = false;
      continue;
    }
    switch (c) {
      case QUOTE:
        inString = true;
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        if (depth === maxDepth)
          throw new JsonShapeError(`The request body is JSON nested deeper than ${maxDepth} levels`);
        if (++containers > maxContainers)
          throw new JsonShapeError(`The request body has more than ${maxContainers} JSON objects and arrays`);
        commas[++depth] = 0;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        if (depth > 0) depth--;
        break;
      case COMMA:
        if (depth > 0 && ++commas[depth] >= maxMembers) {
          throw new JsonShapeError(`The request body has a JSON object or array with more than ${maxMembers} members`);
        }
        break;
    }
  }
}

const ZERO = 0x30;
const LOWER_U = 0x75;

/** True when the backslash at `i` starts the escape `\u0000`. */
function isEscapedNul(utf8: Uint8Array, i: number): boolean {
  return (
    utf8[i + 1] === LOWER_U &&
    utf8[i + 2] === ZERO &&
    utf8[i + 3] === ZERO &&
    utf8[i + 4] === ZERO &&
    utf8[i + 5] === ZERO
  );
}

/**
 * body-parser `verify` hook for JSON bodies: `raw` is the undecoded body, `charset` its declared
 * charset (body-parser only lets `utf-*` through). UTF-16 is rare but legal: re-encoded to UTF-8
 * so one scanner serves both; charsets the platform cannot decode are refused (415).
 */
export function verifyJsonShape(_req: unknown, _res: unknown, raw: Buffer, charset: string | null): void {
  assertJsonShape(toUtf8(raw, charset));
}

/** A body-parser `verify` hook checking other limits (routes that take larger documents). */
export function jsonShapeVerifier(
  limits: JsonShapeLimits,
): (req: unknown, res: unknown, raw: Buffer, charset: string | null) => void {
  return (_req, _res, raw, charset) => assertJsonShape(toUtf8(raw, charset), limits);
}

function toUtf8(raw: Buffer, charset: string | null): Uint8Array {
  const label = (charset ?? 'utf-8').toLowerCase();
  if (label === 'utf-8' || label === 'utf8') return raw;
  let text: string;
  try {
    text = new TextDecoder(label).decode(raw);
  } catch {
    throw Object.assign(new Error(`unsupported charset "${label.toUpperCase()}"`), {
      status: 415,
      type: 'charset.unsupported',
      expose: true,
    });
  }
  return Buffer.from(text, 'utf8');
}
