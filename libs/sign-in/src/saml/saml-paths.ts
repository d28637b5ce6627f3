/** The cookie binding a pending SAML request to the browser that brought it. */
export const SAML_COOKIE = 'signin_saml';
