/**
 * Rules across the fields of one row, and across files through the reference index, per file
 * type. Each rule names the CSV columns it reads; they are resolved to row slots once per file,
 * and the rule runs on every row whose values were all read without error (tombstones included).
 * A rule reports at most one error per row; a file's rules report in table order.
 */
import { UNSCORED_STATUSES } from '../gradebook/gradebook-input';
import type { RosterFileType } from './csv-layout';
import type { IssueLog } from './import-issues';
import type { ReferenceIndex } from './reference-index';
import type { RowLayout } from './row-layout';

export interface RuleFailure {
  readonly column: string;
  readonly message: string;
}

/** What rules may ask the reference index. */
export type RuleRefs = Pick<ReferenceIndex, 'extra' | 'has' | 'isChecked' | 'scope'>;

export interface CrossFieldRule<K extends string = string> {
  /** The values read, by a name of the rule's own: which CSV column (header name) each is. */
  readonly uses: Readonly<Record<K, string>>;
  /** Types whose ids (and kept values) the rule looks up: loaded before the file is read. */
  readonly looksUp?: readonly RosterFileType[];
  /** The row's error, if any; `at` gives the row slot of each value of `uses`. */
  check(row: readonly unknown[], at: Readonly<Record<K, number>>, refs: RuleRefs): RuleFailure | undefined;
}

const rule = <K extends string>(r: CrossFieldRule<K>): CrossFieldRule => r as unknown as CrossFieldRule;

/** Date `end` is not before date `start` (YYYY-MM-DD compares as text). */
const notBefore = (start: string, end: string): CrossFieldRule =>
  rule({
    uses: { start, end },
    check(row, at) {
      const from = row[at.start];
      const to = row[at.end];
      if (typeof from === 'string' && typeof to === 'string' && to < from) return { column: end, message: `${end} ${to} is before ${start} ${from}` };
      return undefined;
    },
  });

/** Number `low` is not greater than number `high`. */
const notGreater = (low: string, high: string): CrossFieldRule =>
  rule({
    uses: { low, high },
    check(row, at) {
      const min = row[at.low];
      const max = row[at.high];
      if (typeof min === 'number' && typeof max === 'number' && min > max) return { column: low, message: `${low} ${min} is greater than ${high} ${max}` };
      return undefined;
    },
  });

/** A class's school is an org of type school (when the org's type is known). */
const schoolIsASchool = rule({
  uses: { school: 'schoolSourcedId' },
  looksUp: ['orgs'],
  check(row, at, refs) {
    const school = row[at.school];
    const type = typeof school === 'string' ? refs.extra('orgs', school) : undefined;
    if (type !== undefined && type !== '' && type !== 'school') return { column: 'schoolSourcedId', message: `'${school}' is an org of type ${type}, not a school` };
    return undefined;
  },
});

/** An enrollment's school is its class's school. */
const schoolOfTheClass = rule({
  uses: { cls: 'classSourcedId', school: 'schoolSourcedId' },
  looksUp: ['classes'],
  check(row, at, refs) {
    const cls = row[at.cls];
    const school = row[at.school];
    const classSchool = typeof cls === 'string' ? refs.extra('classes', cls) : undefined;
    if (classSchool && typeof school === 'string' && classSchool !== school) {
      return { column: 'schoolSourcedId', message: `'${school}' is not the school of class '${cls}' (${classSchool})` };
    }
    return undefined;
  },
});

/** A result has a score unless it is exempt or not submitted. */
const scoreUnlessUnscored = rule({
  uses: { score: 'score', status: 'scoreStatus' },
  check(row, at) {
    const status = row[at.status];
    if (row[at.score] === null && typeof status === 'string' && !UNSCORED_STATUSES.has(status)) {
      return { column: 'score', message: `score is required unless scoreStatus is exempt or not submitted (it is '${status}')` };
    }
    return undefined;
  },
});

/** Demographics describe users: the record's own sourcedId is a user's. */
const describesAUser = rule({
  uses: { id: 'sourcedId' },
  looksUp: ['users'],
  check(row, at, refs) {
    const id = row[at.id] as string;
    if (refs.isChecked('users') && !refs.has('users', id)) {
      return { column: 'sourcedId', message: `'${id}' is not a known user sourcedId (looked ${refs.scope('users')}); demographics describe users` };
    }
    return undefined;
  },
});

/** The rules of each file type, in the order they report. */
export const CROSS_FIELD_RULES: Readonly<Partial<Record<RosterFileType, readonly CrossFieldRule[]>>> = {
  academicSessions: [notBefore('startDate', 'endDate')],
  classes: [schoolIsASchool],
  enrollments: [schoolOfTheClass, notBefore('beginDate', 'endDate')],
  demographics: [describesAUser],
  lineItems: [notGreater('resultValueMin', 'resultValueMax')],
  results: [scoreUnlessUnscored],
};

/** Types the rules of a file look up (to load before reading it). */
export function ruleLookups(type: RosterFileType): RosterFileType[] {
  return (CROSS_FIELD_RULES[type] ?? []).flatMap((r) => r.looksUp ?? []);
}

/** A file's rules with their slots resolved, reporting to the import's issues. */
export class FileRules {
  private readonly rules: readonly { readonly rule: CrossFieldRule; readonly at: Readonly<Record<string, number>> }[];
  private readonly file: string;

  constructor(
    rl: RowLayout,
    private readonly refs: RuleRefs,
    private readonly issues: IssueLog,
    rules: readonly CrossFieldRule[] = CROSS_FIELD_RULES[rl.layout.type] ?? [],
  ) {
    this.file = rl.layout.fileName;
    this.rules = rules.map((r) => ({ rule: r, at: rl.slotsOf(r.uses) }));
  }

  /** Runs every rule on the row; each failure is an error on `line`. */
  check(row: readonly unknown[], line: number): void {
    for (const { rule: r, at } of this.rules) {
      const failure = r.check(row, at, this.refs);
      if (failure) this.issues.error(this.file, line, failure.column, failure.message);
    }
  }
}
