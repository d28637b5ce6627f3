/**
 * Gradebook data for the integration tests, written through the API (PUT) on top of the
 * rostering fixtures (`roster-fixture.ts`), and an independent model of what each gradebook
 * read must return.
 */
import { byteOrder } from './expected';
import type { RosterHarness } from './harness';

export interface CategoryDef {
  id: string;
  title: string;
  deleted?: boolean;
}

export interface LineItemDef {
  id: string;
  title: string;
  classId: string;
  categoryId?: string;
  gradingPeriodId?: string;
  description?: string;
  assignDate: string;
  dueDate: string;
  min?: number;
  max?: number;
}

export interface ResultDef {
  id: string;
  lineItemId: string;
  studentId: string;
  scoreStatus: string;
  score?: number;
  scoreDate: string;
  comment?: string;
  deleted?: boolean;
}

export interface GradebookFixture {
  categories: CategoryDef[];
  lineItems: LineItemDef[];
  results: ResultDef[];
}

/** The district tenant's gradebook (classes and students of `districtFixture`). */
export function districtGradebook(): GradebookFixture {
  return {
    categories: [
      { id: 'cat-hw', title: 'Homework' },
      { id: 'cat-quiz', title: 'Quizzes' },
      { id: 'cat-old', title: 'Retired category', deleted: true },
    ],
    lineItems: [
      {
        id: 'li-alg1-hw1',
        title: 'Homework 1',
        classId: 'cls-alg-1',
        categoryId: 'cat-hw',
        gradingPeriodId: 'as-gp1',
        assignDate: '2023-09-01T08:00:00Z',
        dueDate: '2023-09-08T23:59:59.000Z',
        min: 0,
        max: 10,
      },
      {
        id: 'li-alg1-quiz1',
        title: 'Quiz 1',
        classId: 'cls-alg-1',
        categoryId: 'cat-quiz',
        assignDate: '2023-09-11T08:00:00.000Z',
        dueDate: '2023-09-11T09:00:00.000Z',
        min: 0,
        max: 20,
      },
      {
        id: 'li-alg1-proj',
        title: 'Project',
        classId: 'cls-alg-1',
        description: 'Bridge model',
        assignDate: '2023-10-02T08:00:00+10:00',
        dueDate: '2023-11-30T17:00:00+10:00',
      },
      {
        id: 'li-alg2-hw1',
        title: 'Homework 1',
        classId: 'cls-alg-2',
        categoryId: 'cat-hw',
        gradingPeriodId: 'as-gp1',
        assignDate: '2023-09-01T08:00:00Z',
        dueDate: '2023-09-08T23:59:59Z',
        min: 0,
        max: 10,
      },
    ],
    results: [
      {
        id: 'r-hw1-s01',
        lineItemId: 'li-alg1-hw1',
        studentId: 'usr-s-01',
        scoreStatus: 'fully graded',
        score: 9.5,
        scoreDate: '2023-09-09',
      },
      {
        id: 'r-hw1-s03',
        lineItemId: 'li-alg1-hw1',
        studentId: 'usr-s-03',
        scoreStatus: 'fully graded',
        score: 12,
        scoreDate: '2023-09-09',
        comment: 'Extra credit',
      },
      {
        id: 'r-hw1-s05',
        lineItemId: 'li-alg1-hw1',
        studentId: 'usr-s-05',
        scoreStatus: 'exempt',
        scoreDate: '2023-09-09',
      },
      {
        id: 'r-hw1-s07',
        lineItemId: 'li-alg1-hw1',
        studentId: 'usr-s-07',
        scoreStatus: 'not submitted',
        scoreDate: '2023-09-10',
      },
      {
        id: 'r-quiz1-s01',
        lineItemId: 'li-alg1-quiz1',
        studentId: 'usr-s-01',
        scoreStatus: 'fully graded',
        score: 17,
        scoreDate: '2023-09-12',
      },
      {
        id: 'r-quiz1-s03',
        lineItemId: 'li-alg1-quiz1',
        studentId: 'usr-s-03',
        scoreStatus: 'partially graded',
        score: 15.5,
        scoreDate: '2023-09-12',
        comment: 'Q4 pending',
      },
      {
        id: 'r-quiz1-s05',
        lineItemId: 'li-alg1-quiz1',
        studentId: 'usr-s-05',
        scoreStatus: 'submitted',
        score: 0,
        scoreDate: '2023-09-12',
        deleted: true,
      },
      {
        id: 'r-alg2-s02',
        lineItemId: 'li-alg2-hw1',
        studentId: 'usr-s-02',
        scoreStatus: 'fully graded',
        score: 8,
        scoreDate: '2023-09-09',
      },
    ],
  };
}

/** The school tenant's gradebook: ids that collide with the district's on purpose. */
export function schoolGradebook(): GradebookFixture {
  return {
    categories: [{ id: 'cat-hw', title: 'Hausaufgaben' }],
    lineItems: [
      {
        id: 'li-bv-1',
        title: 'Spelling',
        classId: 'bv-cls-1',
        categoryId: 'cat-hw',
        assignDate: '2024-02-01T00:00:00Z',
        dueDate: '2024-02-02T00:00:00Z',
      },
    ],
    results: [
      {
        id: 'r-hw1-s01',
        lineItemId: 'li-bv-1',
        studentId: 'usr-s-01',
        scoreStatus: 'fully graded',
        score: 5,
        scoreDate: '2024-02-03',
      },
    ],
  };
}

const ref = (sourcedId: string) => ({ sourcedId });

export function categoryBody(c: CategoryDef): object {
  return { category: { title: c.title } };
}

export function lineItemBody(li: LineItemDef): object {
  return {
    lineItem: {
      title: li.title,
      ...(li.description ? { description: li.description } : {}),
      assignDate: li.assignDate,
      dueDate: li.dueDate,
      class: ref(li.classId),
      ...(li.categoryId ? { category: ref(li.categoryId) } : {}),
      ...(li.gradingPeriodId ? { gradingPeriod: ref(li.gradingPeriodId) } : {}),
      ...(li.min !== undefined ? { resultValueMin: li.min } : {}),
      ...(li.max !== undefined ? { resultValueMax: li.max } : {}),
    },
  };
}

export function resultBody(r: ResultDef): object {
  return {
    result: {
      lineItem: ref(r.lineItemId),
      student: ref(r.studentId),
      scoreStatus: r.scoreStatus,
      ...(r.score !== undefined ? { score: r.score } : {}),
      scoreDate: r.scoreDate,
      ...(r.comment ? { comment: r.comment } : {}),
    },
  };
}

/** Writes a gradebook through the API with `token` (create then delete what is marked deleted). */
export async function writeGradebook(h: RosterHarness, g: GradebookFixture, token: string): Promise<void> {
  const put = async (path: string, body: object) => {
    const res = await h.put(path, body, token);
    if (res.status !== 201) throw new Error(`PUT ${path}: ${res.status} ${res.text}`);
  };
  for (const c of g.categories) await put(`categories/${c.id}`, categoryBody(c));
  for (const li of g.lineItems) await put(`lineItems/${li.id}`, lineItemBody(li));
  for (const r of g.results) await put(`results/${r.id}`, resultBody(r));
  for (const c of g.categories.filter((x) => x.deleted)) await h.delete(`categories/${c.id}`, token).expect(204);
  for (const r of g.results.filter((x) => x.deleted)) await h.delete(`results/${r.id}`, token).expect(204);
}

/** What each gradebook read returns for a fixture (sourcedIds in default order). */
export class GradebookModel {
  constructor(readonly g: GradebookFixture) {}

  private lineItemsOf(classId: string): LineItemDef[] {
    return this.g.lineItems.filter((li) => li.classId === classId);
  }

  /**
   * A plain read (no filter on `status` or `dateLastModified`): deleted objects are left out.
   * `withTombstones` gives what a delta read (`status!='…'`, `dateLastModified>'…'`) sees.
   */
  expected(op: string, ids: Record<string, string> = {}, withTombstones = false): string[] {
    const all = this.expectedAll(op, ids);
    return withTombstones ? all : all.filter((id) => !this.isDeleted(id));
  }

  private expectedAll(op: string, ids: Record<string, string>): string[] {
    const sorted = (list: { id: string }[]) => list.map((x) => x.id).sort(byteOrder);
    const inClass = (r: ResultDef) => this.lineItemsOf(ids.class_id as string).some((li) => li.id === r.lineItemId);
    switch (op) {
      case 'getAllCategories':
        return sorted(this.g.categories);
      case 'getAllLineItems':
        return sorted(this.g.lineItems);
      case 'getAllResults':
        return sorted(this.g.results);
      case 'getLineItemsForClass':
        return sorted(this.lineItemsOf(ids.class_id as string));
      case 'getResultsForClass':
        return sorted(this.g.results.filter(inClass));
      case 'getResultsForLineItemForClass':
        return sorted(this.g.results.filter((r) => inClass(r) && r.lineItemId === ids.li_id));
      case 'getResultsForStudentForClass':
        return sorted(this.g.results.filter((r) => inClass(r) && r.studentId === ids.student_id));
      case 'getCategoriesForClass':
        return sorted(this.g.categories.filter((c) => !c.deleted));
      default:
        throw new Error(`no model for ${op}`);
    }
  }

  /** Deleted objects show, with status `tobedeleted`, only to reads filtering on status or dateLastModified. */
  isDeleted(id: string): boolean {
    return [...this.g.categories, ...this.g.results].some((x) => x.id === id && 'deleted' in x && x.deleted === true);
  }
}
