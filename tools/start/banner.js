// What `npm start` prints once everything is ready: where things are and how to call them.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const OPERATOR_ID = process.env.OPERATOR_CLIENT_ID || 'operator';
const OPERATOR_SECRET = process.env.OPERATOR_CLIENT_SECRET || 'demo-operator-secret-not-for-production';

function tokenCurl(identity, clientId, secret, extra = '') {
  return `curl -s -u '${clientId}:${secret}' -d grant_type=client_credentials${extra} ${identity}/oauth/token`;
}

/** Copy-paste lines: get a token into $TOKEN with jq-free shell, then call an endpoint. */
function tokenToVar(identity, clientId, secret, extra = '') {
  return `TOKEN=$(${tokenCurl(identity, clientId, secret, extra)} | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')`;
}

/** `npm run alerts:demo` with the variables that moved ports (the tool reads the same ones). */
function alertsDemoCommand(args) {
  const moved = ['IDENTITY_PORT', 'ALERTS_PORT', 'PG_PORT']
    .filter((v) => process.env[v])
    .map((v) => `${v}=${process.env[v]} `);
  return `${moved.join('')}npm run alerts:demo${args ? ` -- ${args}` : ''}`;
}

/** The alerts demo: generate messages, watch the receiver, fetch a message as the partner app. */
function alertsDemo(identity, alerts, demo) {
  const partnerToken = tokenToVar(
    identity,
    demo.app.clientId,
    demo.app.clientSecret,
    ` -d tenant_id=${demo.tenant.id}`,
  );
  return [
    `# alerts: messages for teachers of ${demo.tenant.name} from its roster, delivered to the two webhooks`,
    `# of ${demo.app.name} (notification-only and full-payload) at the demo receiver; watch the [demo-receiver] lines`,
    alertsDemoCommand('--count 3'),
    '',
    `# then getMessage, as ${demo.app.name} does after a notification-only delivery: set MESSAGE_ID to an`,
    '# id alerts:demo printed (it prints these lines with one filled in)',
    partnerToken,
    `curl -s -H "Authorization: Bearer $TOKEN" ${alerts}/v2/alerts/message/$MESSAGE_ID`,
  ];
}

/** The roster change feed pushed: a change Class Roster Sync makes arrives at its roster-events webhook. */
function rosterEventsDemo(identity, oneroster) {
  const feed = `${oneroster}/roster-events/v1/events`;
  return [
    "# the roster change feed: Class Roster Sync takes the feed's position, writes a grade category at Lion City,",
    '# then pulls what changed since; the change is also pushed to its roster-events webhook as a roster.events',
    '# delivery (watch the [demo-receiver] lines)',
    tokenToVar(
      identity,
      'demo-roster-sync',
      'demo-roster-sync-secret-not-for-production',
      ' -d tenant_id=9b8e7d6c-5a4f-4321-8fed-cba987654302',
    ),
    `CURSOR=$(curl -s -H "Authorization: Bearer $TOKEN" ${feed} | node -pe 'JSON.parse(require("fs").readFileSync(0)).next_cursor')`,
    `curl -s -X PUT -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"category": {"title": "Homework"}}' ${oneroster}/ims/oneroster/gradebook/v1p2/categories/cat-demo-homework`,
    `curl -s -G -H "Authorization: Bearer $TOKEN" --data-urlencode "after=$CURSOR" ${feed}`,
  ];
}

function printBanner({ ports, demoAlerts, demoRosterEvents, demoSignIn, demoRosterSync, logDir, processes = [] }) {
  const identity = `http://localhost:${ports.identity}`;
  const oneroster = `http://localhost:${ports.oneroster}`;
  const alerts = `http://localhost:${ports.alerts}`;
  const lines = [
    '',
    'The platform is up.',
    '',
    `  Identity API + OAuth + JWKS  ${identity}   (OpenAPI: ${identity}/docs)`,
    `  OneRoster v1.1               ${oneroster}/ims/oneroster/v1p1   (OpenAPI: ${oneroster}/docs)`,
    `  OneRoster v1.2               ${oneroster}/ims/oneroster/{rostering,gradebook,resources}/v1p2   (OpenAPI: ${oneroster}/docs/v1p2/rostering, …/gradebook, …/resources)`,
    `  Alerts API                   ${alerts}/v2/alerts   (OpenAPI: ${alerts}/docs)`,
    `  Delivery queue dashboard     ${alerts}/admin/queues   (HTTP Basic: the operator credentials below)`,
    `  Webhook dispatcher (ops)     http://localhost:${ports.dispatcher}/health/ready`,
    ...(ports.rosterSync
      ? [
          `  Roster sync worker (ops)     http://localhost:${ports.rosterSync}/health/ready   (SIS pulls; SFTP drop on port ${ports.sftp})`,
        ]
      : []),
    `  Demo webhook receiver        http://localhost:${ports.receiver}   (logs each delivery as [demo-receiver])`,
    ...(ports.partner
      ? [
          `  Demo sign-in                 http://localhost:${ports.partner}   (a partner app; the demo provider standing in for Google and Microsoft: http://localhost:${ports.upstream})`,
        ]
      : []),
    '',
    '  Every process: /health/live, /health/ready, /metrics',
    ...(logDir
      ? [
          `  Logs: ${logDir}/<process>.log, full JSON (${processes.join(', ')}); \`tail -f ${logDir}/alerts.log\``,
          '        this terminal shows warnings and errors only (START_VERBOSE=1: one line per request too)',
        ]
      : []),
    '',
    'Try it (copy and paste):',
    '',
    '  # the global JWKS',
    `  curl -s ${identity}/.well-known/jwks.json`,
    '',
    `  # an operator token (demo credentials; refused when NODE_ENV=production)`,
    `  ${tokenCurl(identity, OPERATOR_ID, OPERATOR_SECRET)}`,
  ];
  for (const example of demoExamples({ identity, oneroster, alerts })) lines.push('', ...example.map((l) => `  ${l}`));
  if (demoAlerts) lines.push('', ...alertsDemo(identity, alerts, demoAlerts).map((l) => (l ? `  ${l}` : '')));
  if (demoRosterEvents) lines.push('', ...rosterEventsDemo(identity, oneroster).map((l) => `  ${l}`));
  if (demoSignIn) lines.push('', ...demoSignIn.map((l) => `  ${l}`));
  if (demoRosterSync) lines.push('', ...demoRosterSync.map((l) => `  ${l}`));
  lines.push('', 'Ctrl-C stops everything; the next `npm start` reuses the data in .data/.', '');
  console.log(lines.join('\n'));
}

/** Calls against the demo data set, listed in demo-examples.json beside this file. */
function demoExamples(urls) {
  const examples = [];
  const file = path.join(__dirname, 'demo-examples.json');
  if (!fs.existsSync(file)) return examples;
  const expand = (url) =>
    url.replace('{identity}', urls.identity).replace('{oneroster}', urls.oneroster).replace('{alerts}', urls.alerts);
  for (const ex of JSON.parse(fs.readFileSync(file, 'utf8'))) {
    const form = `${ex.tenant_id ? ` -d tenant_id=${ex.tenant_id}` : ''}${ex.scope ? ` -d scope=${ex.scope}` : ''}`;
    const lines = [`# ${ex.title}`, tokenToVar(urls.identity, ex.client_id, ex.client_secret, form)];
    for (const call of [ex.call, ex.then].filter(Boolean))
      lines.push(`curl -s -H "Authorization: Bearer $TOKEN" '${expand(call)}'`);
    examples.push(lines);
  }
  return examples;
}

module.exports = { printBanner, rosterEventsDemo };
