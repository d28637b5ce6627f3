/**
 * The mixed partner workload of the soak, one loop per kind of partner, all at once against the
 * running stack, each paced like a real client (never flat out: the soak watches memory and
 * latency over time, it does not look for the ceiling).
 */
import { benchMessage } from '../alerts/messages';
import { nextLink, sleep, type SoakHttp } from './http';
import { DISTRICT, GRADE_SYNC, HARBOUR_VIEW, ROSTER_SYNC, RUNAWAY, WELLBEING, type Credentials } from './partners';

export interface Stack {
  readonly identity: string;
  readonly oneroster: string;
  readonly alerts: string;
  readonly dispatcher: string;
}

export interface Operator {
  readonly id: string;
  readonly secret: string;
}

/** When the loops stop: read before each round, so a caller may move it while they run. */
export type Deadline = () => number;

/** What the webhook bursts submitted: the message ids and how many deliveries they fanned out to. */
export interface Submitted {
  readonly messageIds: string[];
  deliveries: number;
}

const V1P1 = '/ims/oneroster/v1p1';
const V1P2 = '/ims/oneroster/rostering/v1p2';
/** Not demographics: neither sync client is granted roster-demographics.readonly (every read would be a 403). */
const COLLECTIONS = ['orgs', 'academicSessions', 'courses', 'classes', 'users', 'enrollments'];

/** A full sync: every collection, page by page along `Link: rel="next"`. */
async function fullSync(
  http: SoakHttp,
  client: Credentials,
  base: string,
  collections: readonly string[],
): Promise<void> {
  for (const collection of collections) {
    let url: string | undefined = `${base}/${collection}?limit=25`;
    for (let page = 0; url && page < 100; page++) {
      const answer = await http.as(client, `GET ${collection}`, url);
      url = answer?.status === 200 ? nextLink(answer.headers) : undefined;
    }
  }
}

/** Nightly full syncs, back to back: the district's sync tool (v1.1) and a stock OneRoster 1.2 client at Harbour View. */
async function fullSyncs(http: SoakHttp, stack: Stack, until: Deadline): Promise<void> {
  while (Date.now() < until()) {
    await fullSync(http, ROSTER_SYNC, `${stack.oneroster}${V1P1}`, COLLECTIONS);
    await fullSync(http, HARBOUR_VIEW, `${stack.oneroster}${V1P2}`, COLLECTIONS);
    await sleep(2_000);
  }
}

/** Delta polls every 3 s (what changed since the last poll), and the app's webhooks now and then. */
async function deltaPolls(http: SoakHttp, stack: Stack, until: Deadline): Promise<void> {
  let since = new Date(Date.now() - 86_400_000).toISOString();
  for (let n = 0; Date.now() < until(); n++) {
    const started = new Date().toISOString();
    for (const collection of ['users', 'enrollments', 'classes']) {
      const filter = encodeURIComponent(`dateLastModified>'${since}'`);
      await http.as(
        WELLBEING,
        `GET ${collection} delta`,
        `${stack.oneroster}${V1P1}/${collection}?filter=${filter}&limit=100`,
      );
    }
    since = started;
    if (n % 10 === 0) await http.as(WELLBEING, 'GET /v2/alerts/webhook', `${stack.alerts}/v2/alerts/webhook`);
    await sleep(3_000);
  }
}

/** A grade-sync client: per class, a line item and a result for each student (PUT, replaced each round), read back; bounded by reusing ids. */
async function gradeSync(http: SoakHttp, stack: Stack, until: Deadline): Promise<void> {
  const base = `${stack.oneroster}${V1P1}`;
  for (let round = 0; Date.now() < until(); round++) {
    const classes = (await http.as(GRADE_SYNC, 'GET classes', `${base}/classes?limit=100`))?.body as
      { classes?: { sourcedId: string }[] } | undefined;
    const cls = classes?.classes?.[round % Math.max(1, classes.classes.length)]?.sourcedId;
    if (!cls) {
      await sleep(5_000);
      continue;
    }
    const students =
      (
        (await http.as(GRADE_SYNC, 'GET class students', `${base}/classes/${cls}/students?limit=100`))?.body as
          { users?: { sourcedId: string }[] } | undefined
      )?.users ?? [];
    const lineItem = `soak-li-${cls}-${round % 5}`;
    const json = { 'Content-Type': 'application/json' };
    const item = {
      lineItem: {
        title: `Soak assignment ${round % 5}`,
        assignDate: '2026-02-02T08:00:00Z',
        dueDate: '2026-02-09T08:00:00Z',
        class: { sourcedId: cls },
        resultValueMin: 0,
        resultValueMax: 100,
      },
    };
    await http.as(GRADE_SYNC, 'PUT lineItem', `${base}/lineItems/${lineItem}`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify(item),
    });
    for (const s of students.slice(0, 30)) {
      const result = {
        result: {
          lineItem: { sourcedId: lineItem },
          student: { sourcedId: s.sourcedId },
          scoreStatus: 'fully graded',
          score: (round * 7) % 101,
          scoreDate: '2026-02-10',
        },
      };
      await http.as(GRADE_SYNC, 'PUT result', `${base}/results/${lineItem}.${s.sourcedId}`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify(result),
      });
      await sleep(100);
    }
    await http.as(GRADE_SYNC, 'GET class results', `${base}/classes/${cls}/results?limit=100`);
    if (round % 5 === 4)
      await http.as(GRADE_SYNC, 'DELETE lineItem', `${base}/lineItems/${lineItem}`, { method: 'DELETE' });
    await sleep(1_000);
  }
}

/** One burst of the alert generator: 5 batches of 20 messages for the district, each fanned out to its webhooks. */
export async function alertBurst(
  http: SoakHttp,
  stack: Stack,
  operator: Operator,
  submitted: Submitted,
): Promise<void> {
  const client: Credentials = { id: operator.id, secret: operator.secret };
  for (let batch = 0; batch < 5; batch++) {
    const body = JSON.stringify({ tenant_id: DISTRICT, messages: Array.from({ length: 20 }, () => benchMessage()) });
    const answer = await http.as(client, 'POST /v2/alerts/messages', `${stack.alerts}/v2/alerts/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    const stored =
      (answer?.body as { messages?: { message_id: string; deliveries: number }[] } | undefined)?.messages ?? [];
    if (answer?.status !== 201) continue;
    for (const m of stored) {
      submitted.messageIds.push(m.message_id);
      submitted.deliveries += m.deliveries;
    }
  }
}

/** The alert generator's bursts, every 30 s. */
async function webhookBursts(
  http: SoakHttp,
  stack: Stack,
  operator: Operator,
  until: Deadline,
  submitted: Submitted,
): Promise<void> {
  while (Date.now() < until()) {
    await alertBurst(http, stack, operator, submitted);
    await sleep(30_000);
  }
}

/** A client that ignores its 429s: two reads a second against an operator-set budget of 60 a minute. */
async function runaway(http: SoakHttp, stack: Stack, until: Deadline): Promise<void> {
  while (Date.now() < until()) {
    await http.as(RUNAWAY, 'GET orgs (runaway)', `${stack.oneroster}${V1P1}/orgs?limit=5`);
    await sleep(500);
  }
}

/** Every loop at once until `end` (a time, or read before each round); token refreshes happen inside (each client every 30 s). */
export async function runWorkload(
  http: SoakHttp,
  stack: Stack,
  operator: Operator,
  end: number | Deadline,
  submitted: Submitted = { messageIds: [], deliveries: 0 },
): Promise<Submitted> {
  const until = typeof end === 'number' ? () => end : end;
  await Promise.all([
    fullSyncs(http, stack, until),
    deltaPolls(http, stack, until),
    gradeSync(http, stack, until),
    webhookBursts(http, stack, operator, until, submitted),
    runaway(http, stack, until),
  ]);
  return submitted;
}
