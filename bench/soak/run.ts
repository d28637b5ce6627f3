/**
 * `npm run bench:soak -- --minutes N`: a mixed partner workload against the running stack
 * (`npm start`) for N minutes, printing each minute's throughput, latency, 429s, 5xx, each
 * process's memory, the event-loop lag and the database connections; it fails (exit 1) on any 5xx,
 * a delivery that never arrived, or memory that grows without bound (see README.md).
 */
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { parseCommandLine } from '@edu/config';
import { log, projectRoot } from '../common/processes';
import { SoakHttp } from './http';
import { provisionPartners } from './partners';
import { memoryVerdicts, MinuteCounts, scrapeProcess, type ProcessSample } from './stats';
import { minuteLine, summary, TABLE_HEADER } from './report';
import { runWorkload, type Stack } from './workload';

interface Args {
  minutes: number;
  stack: Stack;
  databaseUrl: string;
  operator: { id: string; secret: string };
}

const PROCESSES = ['identity', 'oneroster', 'alerts', 'dispatcher'] as const;
const SAMPLE_MS = 10_000;
const DRAIN_MS = 120_000;

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): Args {
  const parsed = parseCommandLine({ args: argv, options: { minutes: { type: 'string' } } });
  const minutes =
    typeof parsed === 'string' || parsed.values.minutes === undefined ? Number.NaN : Number(parsed.values.minutes);
  if (!Number.isFinite(minutes) || minutes < 1 || minutes > 24 * 60) {
    if (typeof parsed === 'string') process.stderr.write(`${parsed}\n`);
    process.stderr.write(
      'usage: npm run bench:soak -- --minutes N   (1 to 1440; against the stack `npm start` runs)\n',
    );
    process.exit(2);
  }
  const local = (variable: string, port: number) => `http://localhost:${env[variable] || port}`;
  return {
    minutes,
    stack: {
      identity: local('IDENTITY_PORT', 3000),
      oneroster: local('ONEROSTER_PORT', 3001),
      alerts: local('ALERTS_PORT', 3002),
      dispatcher: local('DISPATCHER_PORT', 3003),
    },
    databaseUrl: env.DATABASE_URL || `postgres://postgres@127.0.0.1:${env.PG_PORT || 54329}/edu_platform`,
    operator: {
      id: env.OPERATOR_CLIENT_ID || 'operator',
      secret: env.OPERATOR_CLIENT_SECRET || 'demo-operator-secret-not-for-production',
    },
  };
}

/** Open connections of each process (its pool's `application_name`), from PostgreSQL itself. */
async function connections(db: Client): Promise<number[]> {
  const { rows } = await db.query<{ name: string; n: number }>(
    `SELECT application_name AS name, count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() GROUP BY 1`,
  );
  return ['identity', 'oneroster', 'alerts', 'webhook-dispatcher'].map(
    (name) => rows.find((r) => r.name === name)?.n ?? 0,
  );
}

/** Samples every process every 10 s (memory for the fit) and prints a line each minute. */
function startSampling(args: Args, db: Client, minute: { current: MinuteCounts; index: number; all: MinuteCounts[] }) {
  const samples = new Map<string, ProcessSample[]>(PROCESSES.map((p) => [p, []]));
  const lines: string[] = [];
  let ticks = 0;
  const timer = setInterval(async () => {
    for (const p of PROCESSES)
      samples.get(p)!.push(
        await scrapeProcess(args.stack[p]).catch(() => ({
          at: Date.now(),
          rssBytes: Number.NaN,
          heapBytes: Number.NaN,
          lagSeconds: Number.NaN,
        })),
      );
    if (++ticks % (60_000 / SAMPLE_MS) !== 0) return;
    const done = minute.current;
    minute.current = new MinuteCounts();
    minute.all.push(minute.current);
    minute.index++;
    const latest = new Map(PROCESSES.map((p) => [p, samples.get(p)!.at(-1)!]));
    const line = minuteLine(minute.index, done, latest, await connections(db).catch(() => []), loadavg()[0] ?? 0);
    lines.push(line);
    process.stdout.write(`${line}\n`);
  }, SAMPLE_MS);
  return { samples, lines, stop: () => clearInterval(timer) };
}

/** Waits until every delivery of the soak's messages is settled; the number that did not arrive. */
async function lostDeliveries(
  db: Client,
  messageIds: string[],
  expected: number,
): Promise<{ delivered: number; lost: number }> {
  const deadline = Date.now() + DRAIN_MS;
  for (;;) {
    const { rows } = await db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE message_id = ANY($1::uuid[]) GROUP BY status',
      [messageIds],
    );
    const delivered = rows.find((r) => r.status === 'delivered')?.n ?? 0;
    if (delivered >= expected || Date.now() > deadline) return { delivered, lost: expected - delivered };
    await new Promise((r) => setTimeout(r, 2_000));
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), process.env);
  const db = new Client({ connectionString: args.databaseUrl, application_name: 'soak' });
  await db.connect();
  provisionPartners(projectRoot(), args.databaseUrl);
  log(`soak for ${args.minutes} min against ${args.stack.oneroster} and friends; one line a minute`);
  process.stdout.write(`${TABLE_HEADER}\n`);
  const first = new MinuteCounts();
  const minute = { current: first, index: 0, all: [first] };
  const http = new SoakHttp(args.stack.identity, () => minute.current);
  const sampling = startSampling(args, db, minute);
  const submitted = await runWorkload(http, args.stack, args.operator, Date.now() + args.minutes * 60_000);
  await new Promise((r) => setTimeout(r, SAMPLE_MS + 500)); // the last minute's line
  sampling.stop();
  const totals = MinuteCounts.sum(minute.all);
  const deliveries = await lostDeliveries(db, submitted.messageIds, submitted.deliveries);
  await db.end();
  const verdicts = memoryVerdicts(sampling.samples);
  const { text, failed } = summary({ lines: sampling.lines, totals, submitted, deliveries, verdicts });
  process.stdout.write(`${text}\n`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
