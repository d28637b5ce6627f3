import { FileRules, type RuleRefs } from './cross-field-rules';
import { CSV_BINDINGS, CSV_VERSIONS, layoutOf } from './csv-bindings';
import {
  stagedDataColumns,
  copyStagingSql,
  createStagingSql,
  insertNewSql,
  updateChangedSql,
} from './roster-merge-sql';
import { fillStagedSql, foldOwnersSql } from './fold-sql';
import { IssueLog } from './import-issues';
import { RowLayout } from './row-layout';

const refs: RuleRefs = {
  extra: () => undefined,
  has: () => true,
  isChecked: () => true,
  scope: () => '',
  isAppOwned: () => false,
};
const columns = (sql: string) => /\((.*)\)/.exec(sql)![1]!.split(', ');

describe.each(CSV_VERSIONS)('the %s CSV binding', (version) => {
  const binding = CSV_BINDINGS[version];

  it('lists each file once, after the files it references', () => {
    expect(new Set(binding.files).size).toBe(binding.files.length);
    binding.files.forEach((type, i) => {
      for (const c of layoutOf(binding, type).columns)
        if (c.ref && c.ref !== type)
          expect({ type, ref: c.ref, before: binding.files.indexOf(c.ref) < i }).toMatchObject({ before: true });
    });
  });

  it('merges every file, the records a fold fills staged owners from before their owner', () => {
    expect([...binding.mergeOrder].sort()).toEqual([...binding.files].sort());
    for (const fold of binding.folds) {
      if (!layoutOf(binding, fold.owner).filledByFolds) continue;
      expect(binding.mergeOrder.indexOf(fold.records)).toBeLessThan(binding.mergeOrder.indexOf(fold.owner));
    }
  });

  it.each(binding.files)('%s: rows, rules and SQL resolve (each rule names columns its file reads)', (type) => {
    const layout = layoutOf(binding, type);
    const rl = new RowLayout(layout, false);
    expect(() => new FileRules(rl, refs, new IssueLog(), binding.rules[type] ?? [])).not.toThrow();
    const staged = columns(createStagingSql(layout)).map((c) => c.split(' ')[0]);
    expect(columns(copyStagingSql(layout))).toEqual(staged);
    for (const sql of [updateChangedSql(layout), insertNewSql(layout)]) expect(sql).not.toMatch(/'[^']*(usr|org|cls)-/);
    expect(layout.fileName).toBe(`${type}.csv`);
  });
});

describe('the 1.2 binding', () => {
  const binding = CSV_BINDINGS['1.2'];

  it("stages a user's folded columns (exactly those the user folds write), never loads users directly", () => {
    const users = layoutOf(binding, 'users');
    const folded = binding.folds.filter((f) => f.owner === 'users').flatMap((f) => f.columns);
    expect(users.filledByFolds!.map((c) => c.db).sort()).toEqual([...folded].sort());
    expect(
      stagedDataColumns(users)
        .slice(-folded.length)
        .map((c) => c.name),
    ).toEqual(users.filledByFolds!.map((c) => c.db));
    for (const c of ['role', 'org_sourced_ids', 'role_group']) expect(updateChangedSql(users)).toContain(`t."${c}"`);
  });

  it("reads a result's classSourcedId to check it, without storing it", () => {
    const results = layoutOf(binding, 'results');
    const rl = new RowLayout(results, false);
    const slot = rl.slotOf('classSourcedId');
    expect(slot).toBeGreaterThanOrEqual(rl.width);
    expect(rl.newRow()).toHaveLength(rl.size);
    expect(stagedDataColumns(results).map((c) => c.name)).not.toContain('class_sourced_id');
  });

  it('folds only changed values, with the import time, never into what apps wrote', () => {
    for (const fold of binding.folds) {
      const sql = foldOwnersSql(fold);
      expect(sql).toContain('date_last_modified = $2');
      expect(sql).toContain('IS DISTINCT FROM');
      expect(sql.includes('t.owner_app_id IS NULL')).toBe(fold.owner !== 'users');
      expect(fillStagedSql(fold)).toMatch(/^UPDATE "stg_/);
    }
    expect(binding.starredKeys).toEqual([
      'file.userProfiles',
      'file.roles',
      'file.userResources',
      'file.scoreScales',
      'file.lineItemScoreScales',
      'file.lineItemLearningObjectiveIds',
      'file.resultScoreScales',
      'file.resultLearningObjectiveIds',
    ]);
  });
});
