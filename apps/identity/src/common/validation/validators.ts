import {
  isURL,
  registerDecorator,
  ValidateIf,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { fontProblem, imageProblem, readXml } from '@edu/content-checks';

/*
 * Custom class-validator rules of the identity API. Rules on lists report the first bad item as
 * `[index] problem`, which the error formatter turns into a field path such as
 * `oauth2.redirect_uris[0]` (see dto-validation.ts).
 */

const URL_OPTIONS = {
  protocols: ['http', 'https'],
  require_protocol: true,
  require_tld: false,
  require_host: true,
  allow_underscores: true,
};
export const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

export function isHttpUrl(value: unknown): boolean {
  return typeof value === 'string' && value.length <= 2048 && isURL(value, URL_OPTIONS);
}

type Check = (value: unknown, args: ValidationArguments) => string | undefined;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Registers a rule whose check returns the problem text (undefined = valid). */
function rule(name: string, check: Check, options?: ValidationOptions): PropertyDecorator {
  return ruleWith([], name, check, options);
}

function ruleWith(constraints: unknown[], name: string, check: Check, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      constraints,
      options,
      validator: {
        validate: (value: unknown, args: ValidationArguments) => check(value, args) === undefined,
        defaultMessage: (args: ValidationArguments) => check(args.value, args) ?? 'is invalid',
      },
    });
  };
}

/** First failing item of a list as `[i] problem`. */
function firstBad(value: unknown, item: (v: unknown) => string | undefined): string | undefined {
  if (!Array.isArray(value)) return 'must be an array';
  for (let i = 0; i < value.length; i++) {
    const problem = item(value[i]);
    if (problem) return `[${i}] ${problem}`;
  }
  return undefined;
}

export const IsHttpUrl = (o?: ValidationOptions) =>
  rule('isHttpUrl', (v) => (isHttpUrl(v) ? undefined : 'must be an http(s) URL'), o);

export const IsHttpUrlList = (o?: ValidationOptions) =>
  rule('isHttpUrlList', (v) => firstBad(v, (item) => (isHttpUrl(item) ? undefined : 'must be an http(s) URL')), o);

export const IsHexColor = (o?: ValidationOptions) =>
  rule(
    'isHexColor',
    (v) => (typeof v === 'string' && HEX_COLOR.test(v) ? undefined : 'must be a hex colour #RRGGBB'),
    o,
  );

/** An SVG document or (unless svgOnly) a base64 PNG, at most maxBytes. */
export const IsImage = (maxBytes: number, svgOnly = false, o?: ValidationOptions) =>
  rule('isImage', (v) => imageProblem(v, maxBytes, svgOnly), o);

/** A well-formed XML document whose root is a SAML `EntityDescriptor` or `EntitiesDescriptor`. */
export const IsSamlMetadataXml = (maxBytes = 256 * 1024, o?: ValidationOptions) =>
  rule(
    'isSamlMetadataXml',
    (v) => {
      if (typeof v !== 'string' || v.trim() === '') return 'must be a SAML metadata XML document';
      if (Buffer.byteLength(v, 'utf8') > maxBytes) return `must be at most ${Math.round(maxBytes / 1024)} KiB`;
      const xml = readXml(v);
      if (!xml.ok) return `is not well-formed XML: ${xml.error}`;
      const root = xml.root.local;
      if (root !== 'EntityDescriptor' && root !== 'EntitiesDescriptor')
        return 'must be SAML metadata (root element EntityDescriptor or EntitiesDescriptor)';
      return undefined;
    },
    o,
  );

/**
 * The property must be present exactly when `discriminator` equals `expected` (e.g. `lti` only
 * with `type: lti1.3`). Says nothing while the discriminator itself is missing or not a string:
 * its own rule reports that.
 */
export function PresentOnlyWhen(
  discriminator: string,
  expected: string,
  o?: ValidationOptions & { object?: boolean },
): PropertyDecorator {
  return ruleWith(
    [o?.object ? 'object' : 'value'],
    'presentOnlyWhen',
    (value, args) => {
      const d = (args.object as Record<string, unknown>)[discriminator];
      if (typeof d !== 'string') return undefined;
      const present = value !== undefined && value !== null;
      if (d === expected && !present) return `is required when ${discriminator} is ${expected}`;
      if (d !== expected && present) return `is only allowed when ${discriminator} is ${expected}`;
      if (present && args.constraints?.[0] === 'object' && !isPlainObject(value)) return 'must be an object';
      return undefined;
    },
    o,
  );
}

/** A base64 font file matching the sibling `file_type`. */
export const IsFontFile = (o?: ValidationOptions) =>
  rule(
    'isFontFile',
    (v, args) =>
      v === undefined || v === null ? undefined : fontProblem(v, (args.object as Record<string, unknown>).file_type),
    o,
  );

const FAMILY_KEYS = ['sans', 'serif'];
const STYLE_CLASS = /^[a-z][a-z0-9:-]{0,63}$/;

/** A font style: exactly one family key (`sans` or `serif`) plus optional style class names. */
export const IsFontStyle = (o?: ValidationOptions) =>
  rule(
    'isFontStyle',
    (v) => {
      if (!Array.isArray(v) || v.length === 0 || v.length > 16) return 'must be a list of 1 to 16 strings';
      if (v.filter((s) => FAMILY_KEYS.includes(s)).length !== 1)
        return 'must name exactly one typeface family (sans or serif)';
      return firstBad(v, (s) =>
        typeof s === 'string' && (FAMILY_KEYS.includes(s) || STYLE_CLASS.test(s))
          ? undefined
          : 'must be a style class name such as font-semibold',
      );
    },
    o,
  );

/** No repeated values in a list. */
export const IsUniqueList = (o?: ValidationOptions) =>
  rule(
    'isUniqueList',
    (v) => {
      if (!Array.isArray(v)) return 'must be an array';
      const seen = new Set<string>();
      return firstBad(v, (item) => {
        const key = JSON.stringify(item);
        if (seen.has(key)) return 'is repeated';
        seen.add(key);
        return undefined;
      });
    },
    o,
  );

/** Every item of a list of nested objects is an object (ValidateNested alone lets arrays and nulls through). */
export const EachObject = (o?: ValidationOptions) =>
  rule('eachObject', (v) => firstBad(v, (item) => (isPlainObject(item) ? undefined : 'must be an object')), o);

/** The property may be left out, but not set to null (unlike @IsOptional()). */
export const Optional = (o?: ValidationOptions): PropertyDecorator =>
  ValidateIf((_object, value) => value !== undefined, o);
