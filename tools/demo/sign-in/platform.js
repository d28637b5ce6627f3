// What `npm start` adds for the sign-in demo: the two demo processes, the identity service's
// core-provider settings pointing at the demo upstream, the partner app's redirect URI, and the
// lines the banner prints.
'use strict';
const path = require('node:path');
const { DEFAULT_PORTS, CALLBACK_PATH, demoSignInConfig, identitySignInEnv } = require('./config');
const { ensureRedirectUri } = require('./redirect');
const { pointSchoolProviderAt } = require('./school-provider');
const { connectDemoLms } = require('./lms-tool');
const { pointSamlAppAt } = require('./saml-app');

const DEMO_OPERATOR = {
  id: process.env.OPERATOR_CLIENT_ID || 'operator',
  secret: process.env.OPERATOR_CLIENT_SECRET || 'demo-operator-secret-not-for-production',
};

function signInDemoPorts(port) {
  return {
    upstream: port('DEMO_UPSTREAM_PORT', DEFAULT_PORTS.upstream),
    partner: port('DEMO_PARTNER_PORT', DEFAULT_PORTS.partner),
    lms: port('DEMO_LMS_PORT', DEFAULT_PORTS.lms),
    samlSp: port('DEMO_SAML_SP_PORT', DEFAULT_PORTS.samlSp),
  };
}

/** [name, node arguments, port, env, readiness path] entries for platform.js. */
function signInDemoServices(root, { identity, upstream, partner, lms, samlSp }) {
  const identityUrl = `http://localhost:${identity}`;
  return [
    [
      'demo-upstream',
      [path.join(__dirname, 'upstream.js')],
      upstream,
      { DEMO_UPSTREAM_PORT: String(upstream), IDENTITY_URL: identityUrl },
      '/health',
    ],
    [
      'demo-partner',
      [path.join(__dirname, 'partner-app.js')],
      partner,
      { DEMO_PARTNER_PORT: String(partner), IDENTITY_URL: identityUrl },
      '/health',
    ],
    ['demo-lms', [path.join(__dirname, 'lms.js')], lms, { DEMO_LMS_PORT: String(lms) }, '/health'],
    [
      'demo-saml-sp',
      [path.join(__dirname, 'saml-sp.js')],
      samlSp,
      { DEMO_SAML_SP_PORT: String(samlSp), IDENTITY_URL: identityUrl },
      '/health',
    ],
  ];
}

/** The identity service's SIGNIN_* settings for the demo upstream (a caller's own settings win). */
function identityDemoEnv({ upstream }) {
  return identitySignInEnv(`http://localhost:${upstream}`);
}

/**
 * After the processes are ready: the partner app's redirect URI on the demo app (a moved
 * DEMO_PARTNER_PORT is added over the API) and the demo tenant's own provider pointed at the demo
 * upstream. Resolves the banner's lines, or undefined without the demo data.
 */
async function prepareSignInDemo({ identityUrl, partner, upstream, lms, samlSp, log }) {
  try {
    const config = demoSignInConfig();
    const redirectUri = `http://localhost:${partner}${CALLBACK_PATH}`;
    const action = await ensureRedirectUri({ identityUrl, appId: config.app.id, redirectUri, operator: DEMO_OPERATOR });
    if (action === 'added') log(`demo sign-in: added ${redirectUri} to the redirect URIs of ${config.app.name}`);
    const upstreamUrl = `http://localhost:${upstream}`;
    if ((await pointSchoolProviderAt({ identityUrl, upstreamUrl, config })) === 'moved')
      log(`demo sign-in: ${config.tenant.name}'s own sign-in now runs at the demo provider (${upstreamUrl})`);
    return [
      ...bannerLines(config, `http://localhost:${partner}/login`),
      ...(await lmsLines({ identityUrl, partner, lms, config, log })),
      ...(await samlLines({ identityUrl, samlSp, config, log })),
    ];
  } catch (err) {
    log(`sign-in demo not ready (${err.message})`);
    return undefined;
  }
}

/** The demo LMS connected to the demo school (its own lines: the rest of the demo works without it). */
async function lmsLines({ identityUrl, partner, lms, config, log }) {
  if (!lms) return [];
  try {
    const { launchPage } = await connectDemoLms({
      identityUrl,
      lmsUrl: `http://localhost:${lms}`,
      partnerUrl: `http://localhost:${partner}`,
      config,
    });
    return [
      `# launch from a learning platform (LTI 1.3): open the demo LMS's course page and open the activity as a student or teacher;`,
      launchPage,
      `# the launch signs them in to ${config.app.name} at ${config.tenant.name} without a sign-in page (docs/operators/connecting-your-lms.md).`,
    ];
  } catch (err) {
    log(`LTI demo not ready (${err.message})`);
    return [];
  }
}

/** The demo SAML app pointed at the demo SAML service provider (its own lines: the rest works without it). */
async function samlLines({ identityUrl, samlSp, config, log }) {
  if (!samlSp) return [];
  try {
    const spUrl = `http://localhost:${samlSp}`;
    const { action, name } = await pointSamlAppAt({ identityUrl, spUrl, operator: DEMO_OPERATOR });
    if (action === 'moved') log(`demo sign-in: ${name} now signs people in at the demo SAML app (${spUrl})`);
    const staff = config.people[0];
    return [
      `# sign in to a SAML app (${name}, the demo SAML service provider on @node-saml/node-saml): open`,
      `${spUrl}/login`,
      `# then Microsoft and ${staff.name}: the app shows the validated assertion (NameID, attributes) (docs/partners/sign-in-saml.md).`,
      `# or start from the school's page of apps (${config.tenant.name}): its ${name} tile is that sign-in`,
      `${identityUrl}/signin/schools/${config.tenant.id}/apps`,
    ];
  } catch (err) {
    log(`SAML demo not ready (${err.message})`);
    return [];
  }
}

function bannerLines(config, url) {
  const staff = config.people[0];
  return [
    `# sign in to a partner app (${config.app.name}, the demo partner app on openid-client): open in a browser`,
    url,
    `# choose ${config.tenant.name}, then Microsoft, then ${staff.name} at the demo provider: the app shows the`,
    '# verified claims (tenant and constituencies included). The demo provider lists who else to try: a student',
    "# signs in with the school's own sign-in, a parent with Google too.",
  ];
}

module.exports = { signInDemoPorts, signInDemoServices, identityDemoEnv, prepareSignInDemo };
