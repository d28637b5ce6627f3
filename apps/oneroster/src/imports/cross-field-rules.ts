/**
 * Rules across the fields of one row, and across files through the reference index, per file
 * type. Each rule names the CSV columns it reads; they are resolved to row slots once per file,
 * and the rule runs on every row whose values were all read without error (tombstones included).
 * A rule reports at most one error per row; a file's rules report in table order.
 */
import { UNSCORED_STATUSES } from '../common/record-rules';
import type { RosterFileType } from './csv-layout';
import type { IssueLog } from './import-issues';
import type { RowLayout } from './row-layout';

export interface RuleFailure {
  readonly column: string;
  readonly message: string;
}

/** What rules may ask the reference index (`ReferenceIndex` answers it; declared here so the rules need not import the index). */
export interface RuleRefs {
  extra(type: RosterFileType, id: string): string | undefined;
  has(type: RosterFileType, id: string): boolean;
  isChecked(type: RosterFileType): boolean;
  scope(type: RosterFileType): string;
  isAppOwned(type: RosterFileType, id: string): boolean;
}

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
      if (typeof from === 'string' && typeof to === 'string' && to < from)
        return { column: end, message: `${end} ${to} is before ${start} ${from}` };
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
      if (typeof min === 'number' && typeof max === 'number' && min > max)
        return { column: low, message: `${low} ${min} is greater than ${high} ${max}` };
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
    if (type !== undefined && type !== '' && type !== 'school')
      return { column: 'schoolSourcedId', message: `'${school}' is an org of type ${type}, not a school` };
    return undefined;
  },
});

/** An enrollment's (a v1.2 line item's) school is its class's school. */
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
      return {
        column: 'score',
        message: `score is required unless scoreStatus is exempt or not submitted (it is '${status}')`,
      };
    }
    return undefined;
  },
});

/** v1.2: a result has a score or a text score unless it is exempt or not submitted. */
const scoreOrTextUnlessUnscored = rule({
  uses: { score: 'score', text: 'textScore', status: 'scoreStatus' },
  check(row, at) {
    const status = row[at.status];
    if (
      row[at.score] === null &&
      row[at.text] === null &&
      typeof status === 'string' &&
      !UNSCORED_STATUSES.has(status)
    ) {
      return {
        column: 'score',
        message: `score or textScore is required unless scoreStatus is exempt or not submitted (it is '${status}')`,
      };
    }
    return undefined;
  },
});

/** v1.2: a result's class, when given, is its line item's (the read side serves that one). */
const classOfTheLineItem = rule({
  uses: { cls: 'classSourcedId', lineItem: 'lineItemSourcedId' },
  looksUp: ['lineItems'],
  check(row, at, refs) {
    const cls = row[at.cls];
    const lineItem = row[at.lineItem];
    const itemClass = typeof lineItem === 'string' ? refs.extra('lineItems', lineItem) : undefined;
    if (typeof cls === 'string' && itemClass && cls !== itemClass)
      return {
        column: 'classSourcedId',
        message: `'${cls}' is not the class of line item '${lineItem}' (${itemClass})`,
      };
    return undefined;
  },
});

/** v1.2: a role's profile is one of its user's profiles. */
const profileOfTheUser = rule({
  uses: { user: 'userSourcedId', profile: 'userProfileSourcedId' },
  looksUp: ['userProfiles'],
  check(row, at, refs) {
    const user = row[at.user];
    const profile = row[at.profile];
    const owner = typeof profile === 'string' ? refs.extra('userProfiles', profile) : undefined;
    if (owner && typeof user === 'string' && owner !== user)
      return {
        column: 'userProfileSourcedId',
        message: `'${profile}' is a profile of user '${owner}', not of '${user}'`,
      };
    return undefined;
  },
});

/** v1.2 link records describe imported gradebook objects only: an app's object has one writer, the app. */
const notAppOwned = (column: string, type: RosterFileType, noun: string): CrossFieldRule =>
  rule({
    uses: { id: column },
    check(row, at, refs) {
      const id = row[at.id];
      if (typeof id === 'string' && refs.isAppOwned(type, id))
        return { column, message: `'${id}' is a ${noun} an app created through the API; an import cannot change it` };
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
      return {
        column: 'sourcedId',
        message: `'${id}' is not a known user sourcedId (looked ${refs.scope('users')}); demographics describe users`,
      };
    }
    return undefined;
  },
});

export type FileRuleSet = Readonly<Partial<Record<RosterFileType, readonly CrossFieldRule[]>>>;

/** The rules of each file type of the v1.1 binding, in the order they report. */
export const CROSS_FIELD_RULES: FileRuleSet = {
  academicSessions: [notBefore('startDate', 'endDate')],
  classes: [schoolIsASchool],
  enrollments: [schoolOfTheClass, notBefore('beginDate', 'endDate')],
  demographics: [describesAUser],
  lineItems: [notGreater('resultValueMin', 'resultValueMax')],
  results: [scoreUnlessUnscored],
};

/** The rules of the v1.2 binding: v1.1's, and those of the new columns and files. */
export const CROSS_FIELD_RULES_V1P2: FileRuleSet = {
  ...CROSS_FIELD_RULES,
  lineItems: [notGreater('resultValueMin', 'resultValueMax'), schoolOfTheClass],
  results: [scoreOrTextUnlessUnscored, classOfTheLineItem],
  roles: [notBefore('beginDate', 'endDate'), profileOfTheUser],
  lineItemScoreScales: [notAppOwned('lineItemSourcedId', 'lineItems', 'line item')],
  lineItemLearningObjectiveIds: [notAppOwned('lineItemSourcedId', 'lineItems', 'line item')],
  resultScoreScales: [notAppOwned('resultSourcedId', 'results', 'result')],
  resultLearningObjectiveIds: [notAppOwned('resultSourcedId', 'results', 'result')],
};

/** Types the rules of a file look up (to load before reading it). */
export function ruleLookups(type: RosterFileType, rules: FileRuleSet = CROSS_FIELD_RULES): RosterFileType[] {
  return (rules[type] ?? []).flatMap((r) => r.looksUp ?? []);
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
