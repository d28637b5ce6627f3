/**
 * `npm run bench:sign-in -- [--concurrency 1,4,16] [--duration 15] [--warmup 3] [--profile 1]`
 *
 * Complete sign-ins per second: the identity service (one compiled process) on PostgreSQL with the
 * demo data set, the demo upstream provider (tools/demo/sign-in/upstream.js, its own process) as
 * identity's Microsoft, and this process as the partner app and the person's browser: the
 * authorization request, the portal, the provider button, the upstream's login, identity's
 * callback and upstream code exchange, the redirect with the code, and the code exchange with
 * PKCE and ID token verification by openid-client. At each concurrency (sign-ins in flight) it
 * runs for `--duration` seconds after `--warmup`, and reports sign-ins/s, p50/p99 of whole
 * sign-ins, the mean time of each step, the CPU each process spent per sign-in, and identity's
 * database round trips per sign-in (counted by a relay in front of PostgreSQL). JSON lands in
 * bench/results/ (with `--profile 1`, a V8 CPU profile of the identity process too).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as oidc from 'openid-client';
import { parseCommandLine } from '@edu/config';
import { cpuMsOf, postgresCpuMs } from '../common/cpu';
import { log, projectRoot } from '../common/processes';
import { signIn, type JourneySetup } from './journey';
import { printReport, summarise, type LevelResult } from './report';
import { startSignInStack, type SignInStack } from './stack';

interface Args {
  concurrency: number[];
  duration: number;
  warmup: number;
  profile: boolean;
}

const OPTIONS = {
  concurrency: { type: 'string', default: '1,4,16' },
  duration: { type: 'string', default: '15' },
  warmup: { type: 'string', default: '3' },
  profile: { type: 'string', default: '0' },
} as const;

function parseArgs(argv: string[]): Args {
  const parsed = parseCommandLine({ args: argv, options: OPTIONS });
  if (typeof parsed === 'string') throw new Error(`${parsed} (see bench/sign-in/run.ts)`);
  const v = parsed.values;
  const args: Args = {
    concurrency: v.concurrency.split(',').map(Number),
    duration: Number(v.duration),
    warmup: Number(v.warmup),
    profile: v.profile === '1',
  };
  if (args.concurrency.some((c) => !Number.isInteger(c) || c < 1) || !(args.duration > 0) || !(args.warmup >= 0))
    throw new Error('--concurrency needs e.g. 1,4,16; --duration and --warmup seconds');
  return args;
}

/** `concurrency` loops of back-to-back sign-ins until `seconds` have passed. */
async function runLevel(
  setup: JourneySetup,
  stack: SignInStack,
  concurrency: number,
  seconds: number,
): Promise<LevelResult> {
  const durations: number[] = [];
  const steps: Map<string, number>[] = [];
  const errors: string[] = [];
  const postgres = () => (stack.pids.postgresChild ? postgresCpuMs(stack.pids.postgresChild) : Number.NaN);
  const cpu0 = {
    identity: cpuMsOf(stack.pids.identity),
    upstream: cpuMsOf(stack.pids.upstream),
    postgres: postgres(),
    driver: process.cpuUsage(),
    db: await stack.dbTransactions(),
    tables: await stack.tableActivity(),
    trips: stack.dbRoundTrips(),
  };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      try {
        const r = await signIn(setup);
        durations.push(r.ms);
        steps.push(r.steps);
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const driver = process.cpuUsage(cpu0.driver);
  const cpu = {
    identity: cpuMsOf(stack.pids.identity) - cpu0.identity,
    upstream: cpuMsOf(stack.pids.upstream) - cpu0.upstream,
    driver: (driver.user + driver.system) / 1000,
    postgres: postgres() - cpu0.postgres,
  };
  const trips = stack.dbRoundTrips();
  const statements = new Map(
    [...trips.statements].map(([text, n]) => [text, n - (cpu0.trips.statements.get(text) ?? 0)]),
  );
  // The statistics collector publishes with a delay: wait for it before reading the count.
  await new Promise((r) => setTimeout(r, 1_000));
  const transactions = (await stack.dbTransactions()) - cpu0.db;
  const tables = new Map(
    [...(await stack.tableActivity())].map(([t, a]) => [
      t,
      { scans: a.scans - (cpu0.tables.get(t)?.scans ?? 0), writes: a.writes - (cpu0.tables.get(t)?.writes ?? 0) },
    ]),
  );
  return summarise(concurrency, elapsed, durations, steps, errors, cpu, {
    transactions,
    roundTrips: trips.total - cpu0.trips.total,
    statements,
    tables,
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const root = projectRoot();
  const stack = await startSignInStack(root, args.profile);
  try {
    const { app, tenant, people } = stack.demo;
    const person = people.find((p) => p.email.startsWith('wei.ling.tan')) ?? people[0];
    const config = await oidc.discovery(
      new URL(stack.identity),
      app.clientId,
      undefined,
      oidc.ClientSecretBasic(app.clientSecret),
      { execute: [oidc.allowInsecureRequests] },
    );
    const setup: JourneySetup = {
      identity: stack.identity,
      upstream: stack.upstream,
      config,
      redirectUri: app.redirectUris.find((u) => u.startsWith('http://localhost')) ?? app.redirectUris[0],
      tenantId: tenant.id,
      provider: 'microsoft',
      sub: person.sub,
    };
    await signIn(setup); // fails early and loudly when the journey is broken
    const results: LevelResult[] = [];
    for (const c of args.concurrency) {
      if (args.warmup) await runLevel(setup, stack, c, args.warmup);
      const r = await runLevel(setup, stack, c, args.duration);
      log(
        `concurrency ${c}: ${r.perSecond.toFixed(1)} sign-ins/s, p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, ${r.errors} errors`,
      );
      results.push(r);
    }
    printReport(results);
    const dir = path.join(root, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `sign-in-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ args, results }, null, 2));
    log(`results: ${path.relative(root, file)}`);
    if (results.some((r) => r.errors > 0)) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
