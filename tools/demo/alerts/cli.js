#!/usr/bin/env node
// `npm run alerts:demo -- [--tenant <id>] [--count N]`: plays the platform's alert generator
// against the platform `npm start` runs. It reads a tenant's roster, builds N alert messages
// (a teacher each, about some of their students), submits them with the operator's token to
// `POST /v2/alerts/messages` and prints the message ids and how many deliveries each fanned
// out to. The demo receiver (`[demo-receiver]` lines of npm start) logs each delivery.
'use strict';
const util = require('node:util');
const { Client } = require('pg');
const { demoAlertsConfig, localPlatform } = require('./config');
const { PlatformError, assertReady, clientToken, jsonCall, describe } = require('./http');
const { buildMessage } = require('./messages');
const roster = require('./roster');

const USAGE = `usage: npm run alerts:demo -- [--tenant <tenant id>] [--count <1-100>]

  --tenant  tenant whose roster the messages are built from (default: the demo tenant with
            the Wellbeing Pulse app and its webhooks)
  --count   how many messages to submit, one teacher each (default 5)

The platform must be running (npm start). Same variables as npm start: IDENTITY_PORT,
ALERTS_PORT, PG_PORT or DATABASE_URL, OPERATOR_CLIENT_ID / OPERATOR_CLIENT_SECRET.`;

// UUID_PATTERN of @edu/domain (isUuid): this script runs without a build step, so it cannot import the TypeScript.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_COUNT = 100;

class UsageError extends Error {}

function parseArgs(argv) {
  let values;
  try {
    ({ values } = util.parseArgs({
      args: argv,
      options: {
        tenant: { type: 'string' },
        count: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    if (String(err.code).startsWith('ERR_PARSE_ARGS_')) throw new UsageError(err.message);
    throw err;
  }
  const out = { tenant: undefined, count: 5, help: values.help };
  if (values.tenant !== undefined) {
    if (!UUID.test(values.tenant))
      throw new UsageError(`--tenant must be a tenant id (a UUID), got "${values.tenant}"`);
    out.tenant = values.tenant.toLowerCase();
  }
  if (values.count !== undefined) {
    const v = values.count;
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_COUNT)
      throw new UsageError(`--count must be a whole number from 1 to ${MAX_COUNT}, got "${v}"`);
    out.count = Number(v);
  }
  return out;
}

async function openDatabase(url) {
  const db = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await db.connect();
  } catch (err) {
    const where = (() => {
      try {
        const u = new URL(url);
        return `${u.hostname}:${u.port || 5432}${u.pathname}`;
      } catch {
        return 'DATABASE_URL';
      }
    })();
    throw new PlatformError(
      `cannot reach the platform database at ${where} (${err.code || err.message}): is \`npm start\` running? Set PG_PORT or DATABASE_URL as for npm start`,
    );
  }
  return db;
}

/** Messages for `count` teachers of the tenant, taking teachers in turn (most students first). */
async function buildMessages(db, tenant, count) {
  const teachers = await roster.teachersWithStudents(db, tenant.id);
  if (teachers.length === 0) {
    throw new PlatformError(
      `tenant ${tenant.id} (${tenant.name}) has no roster with teachers and students: import one with \`npm run roster:import -- --tenant ${tenant.id} <folder>\``,
    );
  }
  const students = new Map();
  const batchId = new Date().toISOString().replace(/[-:.]/g, '');
  const messages = [];
  for (let i = 0; i < count; i++) {
    const teacher = teachers[i % teachers.length];
    if (!students.has(teacher.sourced_id))
      students.set(teacher.sourced_id, await roster.studentsOf(db, tenant.id, teacher.sourced_id));
    messages.push(
      buildMessage({
        tenantId: tenant.id,
        teacher,
        students: students.get(teacher.sourced_id),
        transactionId: `demo-${batchId}-${i + 1}`,
      }),
    );
  }
  return messages;
}

async function main(argv) {
  const args = parseArgs(argv);
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const platform = localPlatform();
  const demo = demoAlertsConfig();
  const tenantId = args.tenant || demo.tenant.id;

  await assertReady('identity', platform.identityUrl);
  await assertReady('alerts', platform.alertsUrl);

  const db = await openDatabase(platform.databaseUrl);
  let tenant;
  let messages;
  try {
    tenant = await roster.findTenant(db, tenantId);
    if (!tenant) {
      const known = await roster.tenantsWithRoster(db);
      const list = known.map((t) => `  ${t.id}  ${t.name} (${t.students} students)`).join('\n');
      throw new PlatformError(
        `tenant ${tenantId} is not known to this platform.${list ? ` Tenants with a roster:\n${list}` : ' No tenant has a roster yet.'}`,
      );
    }
    messages = await buildMessages(db, tenant, args.count);
  } finally {
    await db.end();
  }

  const operatorToken = await clientToken(platform.identityUrl, platform.operator);
  const submitted = await jsonCall('alerts', `${platform.alertsUrl}/v2/alerts/messages`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${operatorToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ tenant_id: tenant.id, messages }),
  });
  if (submitted.status !== 201 || !submitted.body || !Array.isArray(submitted.body.messages)) {
    throw new PlatformError(
      `the alerts service refused the messages (HTTP ${submitted.status}: ${describe(submitted.body)})`,
    );
  }

  console.log(
    `Submitted ${messages.length} alert message${messages.length === 1 ? '' : 's'} for ${tenant.name} (${tenant.id}):\n`,
  );
  let deliveries = 0;
  submitted.body.messages.forEach((m, i) => {
    const msg = messages[i];
    const alerts = msg.alerts.reduce((n, g) => n + g.alerts.length, 0);
    deliveries += m.deliveries;
    console.log(
      `  message ${m.message_id}  to ${msg.recipient.name}: ${alerts} alert${alerts === 1 ? '' : 's'} about ${msg.alerts.map((g) => g.name).join(', ')}  -> ${m.deliveries} deliver${m.deliveries === 1 ? 'y' : 'ies'}`,
    );
  });
  console.log('');
  if (deliveries === 0) {
    console.log(
      `No deliveries: no app deployed at ${tenant.name} with an alerts scope has a webhook. ` +
        `npm start registers two for ${demo.app.name} at ${demo.tenant.name} (${demo.tenant.id}).`,
    );
    return 0;
  }
  console.log(`${deliveries} deliveries queued. The demo receiver logs one line per delivery: look for the`);
  console.log(`"[demo-receiver] verified ..." lines in the npm start output (one per message and webhook).`);
  if (tenant.id === demo.tenant.id) {
    const first = submitted.body.messages[0].message_id;
    console.log(`\nFetch a message as ${demo.app.name} would after a notification-only delivery (getMessage):\n`);
    console.log(
      `  TOKEN=$(curl -s -u '${demo.app.clientId}:${demo.app.clientSecret}' -d grant_type=client_credentials -d tenant_id=${demo.tenant.id} ${platform.identityUrl}/oauth/token | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')`,
    );
    console.log(`  MESSAGE_ID=${first}`);
    console.log(`  curl -s -H "Authorization: Bearer $TOKEN" ${platform.alertsUrl}/v2/alerts/message/$MESSAGE_ID`);
  }
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      if (err instanceof UsageError) {
        console.error(`alerts:demo: ${err.message}\n\n${USAGE}`);
        process.exit(2);
      }
      console.error(`alerts:demo: ${err instanceof PlatformError ? err.message : err && err.stack ? err.stack : err}`);
      process.exit(1);
    },
  );
}

module.exports = { parseArgs, main };
