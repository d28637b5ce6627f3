/**
 * `npm run bench:chaos -- --minutes N`: the soak's partner workload against a platform started
 * for the run, while faults are injected one after another (README.md): each service SIGKILLed
 * and restarted, a CSV import killed halfway, PostgreSQL and Redis restarted, Redis flushed, the
 * dispatcher and PostgreSQL frozen for 10 s. Per fault: what clients saw, how long until every
 * readiness check was green, deliveries lost and duplicated, the import's state. Exit 1 when any
 * fault failed.
 */
import { parseCommandLine } from '@edu/config';
import { log, projectRoot } from '../common/processes';
import { sleep, SoakHttp } from '../soak/http';
import { alertBurst, runWorkload, type Operator, type Submitted } from '../soak/workload';
import { drainAndCount } from './deliveries';
import { FAULTS, type Fault, type FaultContext, type Injected } from './faults';
import { prepareImport } from './import-fault';
import { judgeWindow, setbacksOf } from './judge';
import { runProbes } from './probes';
import { untilAllReady } from './readiness';
import { ChaosRecorder } from './recorder';
import { faultLine, problemsOf, writeResults, type FaultResult } from './report';
import { SERVICES, startChaosStack, type ChaosStack } from './stack';

const OPERATOR: Operator = { id: 'operator', secret: 'demo-operator-secret-not-for-production' };
/** Traffic before the first fault: the control window, which must be clean too. */
const WARM_UP_MS = 20_000;
/** Shortest time from one fault's start to the next: the fault, its recovery, then a calm pause. */
const MIN_SLOT_MS = 45_000;
/** Calm after the last fault before the workload stops. */
const LAST_PAUSE_MS = 20_000;
const READY_TIMEOUT_MS = 120_000;
/** How long accepted messages get to arrive after the workload stopped (retries back off). */
const DRAIN_MS = 300_000;

/** One fault's stretch of the run: from its start until the next fault's (the warm-up has none). */
interface Segment {
  fault: string;
  startedAt: number;
  firstMessage: number;
  /** When the fault itself began (after the burst's lead). */
  injectedAt?: number;
  injected?: Injected;
  readyAt?: number;
  error?: string;
}

/** `--minutes N`, and `--only <text>` to inject just the faults whose name contains it (a fix's check). */
function parseArgs(argv: string[]): { minutes: number; faults: readonly Fault[] } {
  const parsed = parseCommandLine({ args: argv, options: { minutes: { type: 'string' }, only: { type: 'string' } } });
  const minutes =
    typeof parsed === 'string' || parsed.values.minutes === undefined ? Number.NaN : Number(parsed.values.minutes);
  const only = typeof parsed === 'string' ? undefined : parsed.values.only?.toLowerCase();
  const faults = FAULTS.filter((f) => !only || f.name.toLowerCase().includes(only));
  if (!Number.isFinite(minutes) || minutes < 1 || minutes > 24 * 60 || faults.length === 0) {
    if (typeof parsed === 'string') process.stderr.write(`${parsed}\n`);
    process.stderr.write(
      'usage: npm run bench:chaos -- --minutes N [--only <part of a fault name>]   (N: 1 to 1440; starts its own platform)\n',
    );
    process.exit(2);
  }
  return { minutes, faults };
}

/** A burst of alerts just before the fault (deliveries in flight when it hits), the fault, then readiness. */
async function runFault(ctx: FaultContext, fault: Fault, http: SoakHttp, submitted: Submitted): Promise<Segment> {
  const segment: Segment = { fault: fault.name, startedAt: Date.now(), firstMessage: submitted.messageIds.length };
  log(`fault: ${fault.name}`);
  const burst = alertBurst(http, ctx.stack.urls, OPERATOR, submitted);
  await sleep(500);
  segment.injectedAt = Date.now();
  try {
    segment.injected = await fault.inject(ctx);
  } catch (err) {
    segment.error = err instanceof Error ? err.message.split('\n')[0] : String(err);
  }
  segment.readyAt = segment.injected?.readyAt ?? (await untilAllReady(ctx.stack.urls, READY_TIMEOUT_MS));
  await burst;
  return segment;
}

/** The workload and the probes from start to end, the faults spread over `minutes`; the segments. */
async function runChaos(
  stack: ChaosStack,
  o: { minutes: number; faults: readonly Fault[] },
  recorder: ChaosRecorder,
  submitted: Submitted,
) {
  const ctx: FaultContext = {
    stack,
    databaseUrl: stack.postgres.url,
    importPackage: await prepareImport(stack.postgres.url),
    uploadPackage: await prepareImport(stack.postgres.url, 'Chaos Upload District'),
    operator: OPERATOR,
  };
  const http = new SoakHttp(stack.urls.identity, () => recorder);
  let end = Infinity;
  const traffic = Promise.all([
    runWorkload(http, stack.urls, OPERATOR, () => end, submitted),
    runProbes(http, stack.urls, recorder, () => end),
  ]);
  const started = Date.now();
  const segments: Segment[] = [{ fault: 'none (warm-up)', startedAt: started, firstMessage: 0 }];
  const slot = Math.max(MIN_SLOT_MS, (o.minutes * 60_000 - WARM_UP_MS - LAST_PAUSE_MS) / o.faults.length);
  for (const [i, fault] of o.faults.entries()) {
    await sleep(Math.max(0, started + WARM_UP_MS + i * slot - Date.now()));
    segments.push(await runFault(ctx, fault, http, submitted));
  }
  await sleep(LAST_PAUSE_MS);
  end = 0;
  const endedAt = Date.now();
  await traffic;
  ctx.importPackage.cleanup();
  ctx.uploadPackage.cleanup();
  return { segments, endedAt };
}

/** Judges each segment: its answers, its readiness, its messages' deliveries. */
async function evaluate(
  stack: ChaosStack,
  recorder: ChaosRecorder,
  submitted: Submitted,
  run: { segments: Segment[]; endedAt: number },
): Promise<FaultResult[]> {
  const { segments, endedAt } = run;
  const bounds = segments.map((s, i) => ({ s, to: segments[i + 1]?.startedAt ?? endedAt }));
  const ids = bounds.map(({ s }, i) =>
    submitted.messageIds.slice(s.firstMessage, segments[i + 1]?.firstMessage ?? submitted.messageIds.length),
  );
  log(`waiting for ${submitted.messageIds.length} accepted messages to arrive (at most ${DRAIN_MS / 1000} s)`);
  const deliveries = await drainAndCount(stack.receiverUrl, stack.webhookPaths, ids, DRAIN_MS);
  const services = SERVICES.map((n) => stack.services[n]);
  const setbacks = setbacksOf(recorder.answers);
  return bounds.map(({ s, to }, i) => {
    const window = recorder.between(s.startedAt, to);
    const lifted = s.injected?.liftedAt ?? s.startedAt;
    const base = {
      fault: s.fault,
      startedAt: new Date(s.startedAt).toISOString(),
      faultSeconds: (lifted - (s.injectedAt ?? s.startedAt)) / 1000,
      recoverySeconds: i === 0 ? 0 : s.readyAt === undefined ? null : Math.max(0, (s.readyAt - lifted) / 1000),
      clients: judgeWindow(window.answers, window.wrong, services, setbacks),
      deliveries: deliveries[i]!,
      ...(s.injected?.import ? { import: s.injected.import } : {}),
    };
    const problems = [...(s.error ? [`injecting failed: ${s.error}`] : []), ...problemsOf(base)];
    return { ...base, problems, passed: problems.length === 0 };
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const root = projectRoot();
  const stack = await startChaosStack(root);
  let results: FaultResult[];
  try {
    const recorder = new ChaosRecorder();
    const submitted: Submitted = { messageIds: [], deliveries: 0 };
    const run = await runChaos(stack, args, recorder, submitted);
    results = await evaluate(stack, recorder, submitted, run);
  } finally {
    const { logDir } = await stack.stop();
    log(`the processes' output: ${logDir}`);
  }
  process.stdout.write(`\n${results.map(faultLine).join('\n')}\n`);
  const failed = results.filter((r) => !r.passed);
  const file = writeResults(root, { minutes: args.minutes, faults: results, passed: failed.length === 0 });
  process.stdout.write(
    `\n${failed.length ? `FAILED: ${failed.map((r) => r.fault).join(', ')}` : 'PASSED: every fault'}\nresults: ${file}\n`,
  );
  process.exit(failed.length ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
