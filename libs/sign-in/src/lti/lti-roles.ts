/** The LTI 1.3 roles claim (LTI 1.3 §5.3.7). */
export const ROLES_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/roles';

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2';

/**
 * LTI roles to constituency ids, most specific first. A launch names roles; a person provisioned
 * just in time joins the first constituency of the first row whose roles the launch names, among
 * the constituencies of the school that exist, allow the provider and allow self-service
 * provisioning. Sub-roles (`membership/Instructor#TeachingAssistant`) count as their principal role.
 */
export const LTI_ROLE_CONSTITUENCIES: { roles: string[]; constituencies: string[] }[] = [
  {
    roles: [
      `${LIS}/membership#Administrator`,
      `${LIS}/institution/person#Administrator`,
      `${LIS}/system/person#Administrator`,
      `${LIS}/system/person#SysAdmin`,
    ],
    constituencies: ['administrators', 'administrator', 'admin', 'staff'],
  },
  {
    roles: [
      `${LIS}/membership#Instructor`,
      `${LIS}/membership#ContentDeveloper`,
      `${LIS}/institution/person#Instructor`,
      `${LIS}/institution/person#Faculty`,
      `${LIS}/institution/person#Staff`,
    ],
    constituencies: ['teachers', 'teacher', 'staff'],
  },
  {
    roles: [`${LIS}/membership#Learner`, `${LIS}/institution/person#Learner`, `${LIS}/institution/person#Student`],
    constituencies: ['students', 'student'],
  },
  {
    roles: [`${LIS}/membership#Mentor`, `${LIS}/institution/person#Mentor`],
    constituencies: ['guardians', 'guardian', 'parents', 'parent'],
  },
];

const SUB_ROLE = new RegExp(`^${LIS.replace(/\./g, '\\.')}/membership/([A-Za-z]+)#[A-Za-z]+$`);

/** `membership/Instructor#TeachingAssistant` → `membership#Instructor`; a principal role as it is. */
function principal(role: string): string {
  const sub = SUB_ROLE.exec(role);
  return sub ? `${LIS}/membership#${sub[1]}` : role;
}

/** The constituency ids a launch's roles point to, in order of preference; empty when no role is known. */
export function constituenciesForRoles(roles: unknown): string[] {
  if (!Array.isArray(roles)) return [];
  const named = new Set(roles.filter((r): r is string => typeof r === 'string').map(principal));
  const row = LTI_ROLE_CONSTITUENCIES.find((r) => r.roles.some((role) => named.has(role)));
  return row ? row.constituencies : [];
}
