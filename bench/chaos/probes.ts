/**
 * Wrong answers: reads whose answer cannot change during the run (the workload writes only the
 * gradebook and alerts), asked every 2 s; any 200 that differs from the first one is a wrong answer.
 */
import { sleep, type SoakHttp } from '../soak/http';
import { HARBOUR_VIEW, ROSTER_SYNC, type Credentials } from '../soak/partners';
import type { Stack } from '../soak/workload';
import type { ChaosRecorder } from './recorder';

interface Probe {
  what: string;
  client: Credentials;
  path: string;
}

const PROBES: Probe[] = [
  { what: 'GET users (probe)', client: ROSTER_SYNC, path: '/ims/oneroster/v1p1/users?limit=20&sort=sourcedId' },
  {
    what: 'GET classes v1.2 (probe)',
    client: HARBOUR_VIEW,
    path: '/ims/oneroster/rostering/v1p2/classes?limit=20&sort=sourcedId',
  },
];

/** The first 200 of each probe, the answer every later 200 must equal. */
async function baselines(http: SoakHttp, stack: Stack): Promise<string[]> {
  const out: string[] = [];
  for (const p of PROBES) {
    const answer = await http.as(p.client, p.what, `${stack.oneroster}${p.path}`);
    if (answer?.status !== 200) throw new Error(`${p.what} answered ${answer?.status} before any fault`);
    out.push(JSON.stringify(answer.body));
  }
  return out;
}

export async function runProbes(http: SoakHttp, stack: Stack, recorder: ChaosRecorder, until: () => number) {
  const expected = await baselines(http, stack);
  while (Date.now() < until()) {
    for (const [i, p] of PROBES.entries()) {
      const answer = await http.as(p.client, p.what, `${stack.oneroster}${p.path}`);
      if (answer?.status === 200 && JSON.stringify(answer.body) !== expected[i])
        recorder.wrongAnswer(p.what, `a 200 whose body differs from the first answer`);
    }
    await sleep(2_000);
  }
}
