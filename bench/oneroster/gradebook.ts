/**
 * The gradebook part of the benchmark: what a grade-sync client does for one class — 40 line
 * items, then a result for each of 30 students on each (1,200 PUTs) — and the class's results
 * read back page by page (`/classes/{id}/results`).
 */
import type { Client } from 'pg';

export const STUDENTS_PER_CLASS = 30;
export const LINE_ITEMS_PER_CLASS = 40;
export const RESULTS_PER_CLASS = STUDENTS_PER_CLASS * LINE_ITEMS_PER_CLASS;

/** A class with the students and line items its results are written for. */
export interface GradedClass {
  readonly classId: string;
  readonly students: readonly string[];
  readonly lineItems: readonly string[];
}

/**
 * `count` classes of the tenant with at least 30 active student enrollments (of active students),
 * each with its first 30 students in sourcedId order.
 */
export async function classesWithStudents(db: Client, tenantId: string, count: number): Promise<GradedClass[]> {
  const { rows } = await db.query<{ class_id: string; students: string[] }>(
    `SELECT e.class_sourced_id AS class_id, (array_agg(e.user_sourced_id ORDER BY e.user_sourced_id COLLATE "C"))[1:${STUDENTS_PER_CLASS}] AS students
       FROM roster_enrollments e JOIN roster_users u ON u.tenant_id = e.tenant_id AND u.sourced_id = e.user_sourced_id
      WHERE e.tenant_id = $1 AND e.role = 'student' AND e.status = 'active' AND u.status = 'active' AND u.role = 'student'
      GROUP BY e.class_sourced_id HAVING count(*) >= ${STUDENTS_PER_CLASS}
      ORDER BY e.class_sourced_id COLLATE "C" LIMIT $2`,
    [tenantId, count],
  );
  if (rows.length < count)
    throw new Error(`need ${count} classes with ${STUDENTS_PER_CLASS} students, found ${rows.length}: raise --scale`);
  return rows.map((r, c) => ({
    classId: r.class_id,
    students: r.students,
    lineItems: Array.from({ length: LINE_ITEMS_PER_CLASS }, (_, i) => `bench-li-${c}-${String(i).padStart(2, '0')}`),
  }));
}

/** PUTs the class's 40 line items (not measured); throws unless each is created. */
export async function createLineItems(
  serviceUrl: string,
  prefix: string,
  headers: Record<string, string>,
  cls: GradedClass,
): Promise<void> {
  for (const [i, id] of cls.lineItems.entries()) {
    const res = await fetch(`${serviceUrl}${prefix}/lineItems/${id}`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        lineItem: {
          title: `Assignment ${i + 1}`,
          assignDate: '2026-02-02T08:00:00Z',
          dueDate: '2026-02-09T08:00:00Z',
          class: { sourcedId: cls.classId },
          resultValueMin: 0,
          resultValueMax: 100,
        },
      }),
    });
    if (res.status !== 201) throw new Error(`PUT lineItems/${id}: HTTP ${res.status} ${await res.text()}`);
  }
}

/** The n-th result PUT of a class (n mod 1,200 picks the line item and student); the score varies with n so a replace writes. */
export function resultPut(prefix: string, cls: GradedClass, n: number): { path: string; body: string } {
  const k = n % RESULTS_PER_CLASS;
  const lineItem = cls.lineItems[Math.floor(k / STUDENTS_PER_CLASS)] as string;
  const student = cls.students[k % STUDENTS_PER_CLASS] as string;
  return {
    path: `${prefix}/results/${lineItem}.${student}`,
    body: JSON.stringify({
      result: {
        lineItem: { sourcedId: lineItem },
        student: { sourcedId: student },
        scoreStatus: 'fully graded',
        score: (n * 7) % 101,
        scoreDate: '2026-02-10',
      },
    }),
  };
}

/** The n-th page read of `/classes/{id}/results` (limit 100) over the given classes. */
export function resultsPage(prefix: string, classes: readonly GradedClass[], n: number): string {
  const pages = RESULTS_PER_CLASS / 100;
  const cls = classes[n % classes.length] as GradedClass;
  return `${prefix}/classes/${cls.classId}/results?limit=100&offset=${(Math.floor(n / classes.length) % pages) * 100}`;
}
