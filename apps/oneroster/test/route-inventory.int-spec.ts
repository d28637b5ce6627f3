import { routeInventory, type RouteEntry } from '@edu/testing';
import { RosterHarness } from './support/harness';

const inventory = (h: RosterHarness): RouteEntry[] => routeInventory(h.app);

const R = 'roster-core.readonly roster.readonly';
const G = 'gradebook.readonly gradebook.createput';
const P = '/ims/oneroster/v1p1';

/**
 * The reviewed permission list of the OneRoster API (41 rostering reads, 16 gradebook operations
 * plus classes/:class_id/categories, 4 resources reads): a diff here is a permission change.
 */
const EXPECTED = `
ALL ${P} public
ALL ${P}/*path public
GET ${P}/academicSessions ${R}
GET ${P}/categories ${G}
GET ${P}/categories/:id ${G}
PUT ${P}/categories/:id gradebook.createput
DELETE ${P}/categories/:id gradebook.delete
GET ${P}/classes/:class_id/categories ${G}
GET ${P}/classes/:class_id/lineItems ${G}
GET ${P}/classes/:class_id/lineItems/:li_id/results ${G}
GET ${P}/classes/:class_id/resources resource.readonly
GET ${P}/classes/:class_id/results ${G}
GET ${P}/classes/:class_id/students/:student_id/results ${G}
GET ${P}/courses/:course_id/resources resource.readonly
GET ${P}/lineItems ${G}
GET ${P}/lineItems/:id ${G}
PUT ${P}/lineItems/:id gradebook.createput
DELETE ${P}/lineItems/:id gradebook.delete
GET ${P}/resources resource.readonly
GET ${P}/resources/:id resource.readonly
GET ${P}/results ${G}
GET ${P}/results/:id ${G}
PUT ${P}/results/:id gradebook.createput
DELETE ${P}/results/:id gradebook.delete
GET ${P}/academicSessions/:id ${R}
GET ${P}/classes ${R}
GET ${P}/classes/:id ${R}
GET ${P}/classes/:id/students ${R}
GET ${P}/classes/:id/teachers ${R}
GET ${P}/courses ${R}
GET ${P}/courses/:id ${R}
GET ${P}/courses/:id/classes ${R}
GET ${P}/demographics roster-demographics.readonly
GET ${P}/demographics/:id roster-demographics.readonly
GET ${P}/enrollments ${R}
GET ${P}/enrollments/:id ${R}
GET ${P}/gradingPeriods ${R}
GET ${P}/gradingPeriods/:id ${R}
GET ${P}/orgs ${R}
GET ${P}/orgs/:id ${R}
GET ${P}/schools ${R}
GET ${P}/schools/:id ${R}
GET ${P}/schools/:school_id/classes ${R}
GET ${P}/schools/:school_id/classes/:class_id/enrollments ${R}
GET ${P}/schools/:school_id/classes/:class_id/students ${R}
GET ${P}/schools/:school_id/classes/:class_id/teachers ${R}
GET ${P}/schools/:school_id/courses ${R}
GET ${P}/schools/:school_id/enrollments ${R}
GET ${P}/schools/:school_id/students ${R}
GET ${P}/schools/:school_id/teachers ${R}
GET ${P}/schools/:school_id/terms ${R}
GET ${P}/students ${R}
GET ${P}/students/:id ${R}
GET ${P}/students/:id/classes ${R}
GET ${P}/teachers ${R}
GET ${P}/teachers/:id ${R}
GET ${P}/teachers/:id/classes ${R}
GET ${P}/terms ${R}
GET ${P}/terms/:id ${R}
GET ${P}/terms/:id/classes ${R}
GET ${P}/terms/:id/gradingPeriods ${R}
GET ${P}/users ${R}
GET ${P}/users/:id ${R}
GET ${P}/users/:id/classes ${R}
`
  .trim()
  .split('\n')
  .map((l) => l.trim());

describe('oneroster route inventory', () => {
  const h = new RosterHarness();
  beforeAll(() => h.start());
  afterAll(() => h.stop());

  it('lists every OneRoster route with its scopes (reviewed)', () => {
    const rows = inventory(h)
      .filter((r) => r.path === P || r.path.startsWith(`${P}/`))
      .map((r) => `${r.method} ${r.path} ${r.access}`);
    expect(rows).toEqual(
      [...EXPECTED].sort((a, b) => a.split(' ')[1]!.localeCompare(b.split(' ')[1]!) || a.localeCompare(b)),
    );
  });

  it('has no route that declares neither @Public nor scopes', () => {
    expect(inventory(h).filter((r) => r.access === 'NONE')).toEqual([]);
  });
});
