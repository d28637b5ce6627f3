import { FEED_OBJECTS } from '@edu/sharing';
import type { ScopeKey } from '@edu/domain';
import type { OneRosterResource } from '@edu/oneroster-query';

/** The feed's collection names, in the order they are listed (validation, docs). */
export const FEED_OBJECT_NAMES: readonly string[] = FEED_OBJECTS.map((o) => o.object);

/** The OneRoster class of a feed collection. */
export function resourceOf(object: string): OneRosterResource {
  const o = FEED_OBJECTS.find((x) => x.object === object);
  if (!o) throw new TypeError(`no feed collection ${object}`);
  return o.resource as OneRosterResource;
}

const ROSTER: ScopeKey[] = [
  'roster-core.readonly',
  'roster.readonly',
  'v1p2.roster-core.readonly',
  'v1p2.roster.readonly',
];
const DEMOGRAPHICS: ScopeKey[] = ['roster-demographics.readonly', 'v1p2.roster-demographics.readonly'];
const RESOURCES: ScopeKey[] = ['resource.readonly', 'v1p2.resource-core.readonly', 'v1p2.resource.readonly'];
const GRADEBOOK: ScopeKey[] = [
  'gradebook.readonly',
  'gradebook.createput',
  'v1p2.gradebook-core.readonly',
  'v1p2.gradebook.readonly',
  'v1p2.gradebook.createput',
];
const ASSESSMENTS: ScopeKey[] = ['v1p2.assessment.readonly', 'v1p2.assessment.createput'];

/**
 * The deployment scopes (any one, either OneRoster version) that let a feed carry a collection:
 * the scopes its reads would need. `roster.readonly` alone does not open demographics, as in 1.1.
 */
export const FEED_SCOPES: Readonly<Record<string, readonly ScopeKey[]>> = {
  orgs: ROSTER,
  academicSessions: ROSTER,
  courses: ROSTER,
  classes: ROSTER,
  users: ROSTER,
  enrollments: ROSTER,
  demographics: DEMOGRAPHICS,
  resources: RESOURCES,
  categories: GRADEBOOK,
  lineItems: GRADEBOOK,
  results: GRADEBOOK,
  scoreScales: GRADEBOOK,
  assessmentLineItems: ASSESSMENTS,
  assessmentResults: ASSESSMENTS,
};
