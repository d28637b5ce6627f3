/** Where the authorization of a SAML sign-in comes back to (the only redirect URI of a `saml` app's client). */
export const SAML_COMPLETE_PATH = '/saml/complete';
/** The cookie binding a pending SAML request to the browser that brought it. */
export const SAML_COOKIE = 'signin_saml';
