import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/*
 * JSON schemas written from the spec's object tables (section 2.1 to 2.8): every listed field is
 * required, nothing else is allowed, and the conditional objects appear exactly when they should.
 */

const uuid = { type: 'string', format: 'uuid' } as const;
const url = { type: 'string', format: 'uri', pattern: '^https?://' } as const;
const str = { type: 'string' } as const;
const hex = { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' } as const;
const image = { type: 'string', minLength: 1 } as const;
const svg = { type: 'string', pattern: '^\\s*(<\\?xml[^>]*>\\s*)?<svg[\\s>]' } as const;
const strings = { type: 'array', items: str } as const;

const object = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});

const samlObject = object({
  metadata_url: url,
  metadata_xml: { type: 'string', pattern: '<' },
  entity_id: str,
  reply_url: url,
  sign_on_url: url,
  relay_state: { type: ['string', 'null'] },
  sign_out_url: url,
  claims: {
    type: 'array',
    items: object({
      namespace: str,
      claims: { type: 'array', items: object({ name: str, value: { type: 'string', pattern: '^user\\.' } }) },
    }),
  },
});

export const APP = {
  ...object(
    {
      id: uuid,
      name: str,
      owner: object({ type: { enum: ['tenant', 'developer'] }, id: uuid }),
      auth_type: { enum: ['oauth2', 'saml'] },
      oauth2: object({ redirect_uris: { type: 'array', items: url } }),
      saml: samlObject,
    },
    ['oauth2', 'saml'],
  ),
  oneOf: [
    { properties: { auth_type: { const: 'oauth2' } }, required: ['oauth2'], not: { required: ['saml'] } },
    { properties: { auth_type: { const: 'saml' } }, required: ['saml'], not: { required: ['oauth2'] } },
  ],
};

export const CORE_IDENTITY_PROVIDER = object({ id: { type: 'string', not: { format: 'uuid' } }, button_graphic: svg });

export const TENANT_IDENTITY_PROVIDER = {
  ...object(
    {
      id: { type: 'string', format: 'uuid', minLength: 36, maxLength: 36 },
      button_graphic: svg,
      provision_just_in_time: { type: 'boolean' },
      tenant: uuid,
      type: { enum: ['lti1.3', 'oauth2'] },
      lti: object({
        client_id: str,
        oidc_authentication_url: url,
        oauth_access_token_url: url,
        jwks_url: url,
        issuer: url,
        validate_lti_tokens_at_oidc_login: { type: 'boolean' },
        deployment_id: str,
      }),
      oauth2: object({
        client_id: str,
        authorization_url: url,
        token_url: url,
        scope: strings,
        oidc_discovery: url,
        jwks_url: url,
      }),
    },
    ['lti', 'oauth2'],
  ),
  oneOf: [
    { properties: { type: { const: 'lti1.3' } }, required: ['lti'], not: { required: ['oauth2'] } },
    { properties: { type: { const: 'oauth2' } }, required: ['oauth2'], not: { required: ['lti'] } },
  ],
};

export const IDENTITY_PROVIDER = { oneOf: [CORE_IDENTITY_PROVIDER, TENANT_IDENTITY_PROVIDER] };

export const TENANT = object({
  id: { type: 'string', format: 'uuid', minLength: 36, maxLength: 36 },
  name: str,
  customer_id: { type: 'integer' },
  govt_id: str,
  environment: str,
  status: str,
  region: object({
    id: str,
    name: str,
    provider: str,
    provider_region_id: str,
    region: str,
    region_code: str,
    country: str,
    country_code: { type: 'string', pattern: '^[A-Z]{2}$' },
  }),
});

const QUOTA = { type: 'integer', minimum: 1, maximum: 1_000_000 };

export const DEPLOYMENT = object({
  deployment_id: uuid,
  app_id: uuid,
  tenant_id: uuid,
  scope: { type: 'array', items: { type: 'string', format: 'uri' } },
  app: object({ id: uuid, name: str }),
  // Extension to the spec's table (design §8): every per-deployment setting, defaults filled in.
  settings: object(
    {
      oneroster_date_format: { enum: ['compact', 'iso8601'] },
      oneroster_booleans: { enum: ['string', 'json'] },
      oneroster_profile: { enum: ['strict', 'compatibility'] },
      // The operator's rate-limit quotas: requests per window, only where set.
      rate_limit_read: QUOTA,
      rate_limit_write: QUOTA,
      rate_limit_gradebook_write: QUOTA,
    },
    ['rate_limit_read', 'rate_limit_write', 'rate_limit_gradebook_write'],
  ),
});

/** An app developer as the operator reads it (the spec shows no developer object). */
export const DEVELOPER = object({ id: uuid, name: str, email: { type: 'string', format: 'email' } });

export const CONSTITUENCY = object({
  id: str,
  name: str,
  enable_self_service_provisioning: { type: 'boolean' },
  allowed_identity_providers: strings,
});

const userSummary = object({
  id: uuid,
  email: { type: 'string', format: 'email' },
  name: str,
  nickname: str,
  picture: url,
});

export const TENANT_USER = object({
  user_email: { type: 'string', format: 'email' },
  tenant_id: uuid,
  constituencies: strings,
  user: userSummary,
});

export const USER = object({
  id: uuid,
  email: { type: 'string', format: 'email' },
  name: str,
  nickname: str,
  picture: url,
  idp_identifiers: { type: 'array', items: object({ id: uuid, idp_id: str }) },
});

const typeface = {
  ...object({ name: str, source: str, file_type: str, file: { type: 'string', contentEncoding: 'base64' } }, [
    'file_type',
    'file',
  ]),
  if: { properties: { source: { const: 'file' } } },
  then: { required: ['file_type', 'file'] },
  else: { not: { anyOf: [{ required: ['file'] }, { required: ['file_type'] }] } },
};

/** A row of the sign-in log (beyond the spec: GET /tenants/:id/sign-ins). */
export const SIGN_IN_EVENT = object({
  id: uuid,
  time: { type: 'string', format: 'date-time' },
  tenant_id: uuid,
  app_id: { anyOf: [uuid, { type: 'null' }] },
  provider_id: { type: ['string', 'null'] },
  user_id: { anyOf: [uuid, { type: 'null' }] },
  outcome: { enum: ['success', 'refused'] },
  reason: { type: ['string', 'null'] },
});

export const VANITY_DOMAIN = object({
  domain: { type: 'string', format: 'hostname', pattern: '\\.' },
  owner: object({ type: { const: 'tenant' }, id: uuid }),
  tenants: { type: 'array', items: uuid, minItems: 1 },
  status: str,
  brand_configuration: object({
    portal_name: str,
    primary_color: hex,
    secondary_color: hex,
    typefaces: object({ sans: { type: 'array', items: typeface }, serif: { type: 'array', items: typeface } }),
    font_styles: object({ header: strings, prose: strings }),
    layout: str,
    logo: object({ light: image, dark: image }),
    background: object({
      color: object({ dark: hex, light: hex }),
      gradient: object({ from: hex, via: { anyOf: [hex, { type: 'null' }] }, to: hex }),
      image,
      position: str,
      repeat: str,
      size: str,
    }),
  }),
});

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

const compiled = new Map<object, ValidateFunction>();

/** Asserts that `body` is a JSON array whose every element matches `schema`. */
export function expectArrayOf(schema: object, body: unknown, minItems = 1): void {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile({ type: 'array', minItems, items: schema });
    compiled.set(schema, validate);
  }
  if (!validate(body))
    throw new Error(
      `response does not match the spec schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body, null, 2).slice(0, 2000)}`,
    );
}

export function expectShape(schema: object, body: unknown): void {
  expectArrayOf(schema, [body]);
}
