/** Random sharing specs over the generated roster (`sharing-fixture.ts`), every mode and withhold category. */
import { GRADES, pick, sample, SCHOOLS, SUBJECTS, TERMS } from './sharing-fixture';
import type { ModelRule, ModelSpec } from './sharing-model';

const CATEGORIES = ['contact', 'identifiers', 'demographics', 'preferred_names', 'birth_date'];

function classRule(rnd: () => number): ModelRule {
  const choices: Array<() => ModelRule> = [
    () => ({ object: 'class', field: 'school', op: pick(rnd, ['is', 'is_not'] as const), value: pick(rnd, SCHOOLS) }),
    () => ({ object: 'class', field: 'school', op: 'in', value: sample(rnd, SCHOOLS, 2) }),
    () => ({ object: 'class', field: 'subject', op: 'is', value: pick(rnd, SUBJECTS).toLowerCase() }),
    () => ({ object: 'class', field: 'subject', op: 'contains', value: pick(rnd, ['math', 'SCI', 'is', 'e']) }),
    () => ({ object: 'class', field: 'grade', op: pick(rnd, ['is', 'is_not'] as const), value: pick(rnd, GRADES) }),
    () => ({ object: 'class', field: 'term', op: 'is', value: pick(rnd, TERMS) }),
    () => ({ object: 'class', field: 'title', op: 'starts_with', value: pick(rnd, ['Math', 'art', 'Sci', 'Z']) }),
    () => ({ object: 'class', field: 'classCode', op: 'contains', value: pick(rnd, ['-1', 'ENG', 'his']) }),
    () => ({ object: 'class', field: 'classType', op: 'is', value: pick(rnd, ['homeroom', 'Scheduled']) }),
    () => ({ object: 'class', field: 'course', op: 'in', value: ['crs-s1-1', 'crs-s2-2', 'crs-s3-3'] }),
    () => ({ object: 'class', field: 'location', op: 'is_not', value: 'Room 3' }),
  ];
  return pick(rnd, choices)();
}

function userRule(rnd: () => number): ModelRule {
  const choices: Array<() => ModelRule> = [
    () => ({ object: 'user', field: 'role', op: 'is', value: pick(rnd, ['student', 'Teacher', 'aide']) }),
    () => ({
      object: 'user',
      field: 'role',
      op: 'in',
      value: sample(rnd, ['student', 'teacher', 'administrator', 'parent'], 2),
    }),
    () => ({ object: 'user', field: 'role', op: 'is_not', value: 'student' }),
    () => ({ object: 'user', field: 'grade', op: pick(rnd, ['is', 'in'] as const), value: pick(rnd, GRADES) }),
    () => ({ object: 'user', field: 'school', op: 'is', value: pick(rnd, [...SCHOOLS, 'org-x1']) }),
    () => ({ object: 'user', field: 'email', op: 'contains', value: pick(rnd, ['LAKESIDE', 'stu0', 'tea']) }),
    () => ({ object: 'user', field: 'username', op: 'starts_with', value: pick(rnd, ['stu0', 'tea', 'adm']) }),
    () => ({ object: 'user', field: 'familyName', op: 'is', value: pick(rnd, ['smith', 'Tan', 'Kim']) }),
    () => ({ object: 'user', field: 'givenName', op: 'is_not', value: pick(rnd, ['Ava', 'Noah']) }),
  ];
  const rule = pick(rnd, choices)();
  // `in` takes a list.
  return rule.op === 'in' && typeof rule.value === 'string' ? { ...rule, value: [rule.value] } : rule;
}

/** One random spec: every mode, random lists (with ids nothing matches), rules and withholds. */
export function randomSpec(rnd: () => number, classIds: readonly string[]): ModelSpec {
  const withhold = sample(rnd, CATEGORIES, Math.floor(rnd() * 4));
  const r = rnd();
  if (r < 0.1) return { mode: 'all', withhold };
  if (r < 0.35)
    return {
      mode: 'schools',
      schools: sample(rnd, [...SCHOOLS, 'org-x1', 'org-d1', 'org-nope'], 1 + Math.floor(rnd() * 3)),
      withhold,
    };
  if (r < 0.6)
    return { mode: 'classes', classes: [...sample(rnd, classIds, Math.floor(rnd() * 6)), 'cls-nope'], withhold };
  const rules: ModelRule[] = [];
  const n = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < n; i++) rules.push(rnd() < 0.5 ? classRule(rnd) : userRule(rnd));
  return { mode: 'rules', rules, withhold };
}
