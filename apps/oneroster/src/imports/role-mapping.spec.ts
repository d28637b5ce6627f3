import { V1P1_ROLE_OF, v1p1RolesJson, v1p2RoleOf } from './role-mapping';

describe('role values between the versions', () => {
  it('v1.1 → v1.2: administrators by org type (unknown: site), the other roles unchanged', () => {
    expect(['district', 'local', 'state', 'national'].map((t) => v1p2RoleOf('administrator', t))).toEqual(
      Array(4).fill('districtAdministrator'),
    );
    expect(['school', 'department', 'ext:trust', undefined].map((t) => v1p2RoleOf('administrator', t))).toEqual(
      Array(4).fill('siteAdministrator'),
    );
    expect(v1p2RoleOf('aide', 'district')).toBe('aide');
    expect(JSON.parse(v1p1RolesJson('teacher', ['s"1', 's2'], () => 'school'))).toEqual([
      { roleType: 'primary', role: 'teacher', org: 's"1' },
      { roleType: 'primary', role: 'teacher', org: 's2' },
    ]);
    expect(v1p1RolesJson('teacher', [], () => undefined)).toBe('[]');
  });

  it('v1.2 → v1.1: the five administrative roles are administrators, the others keep their name', () => {
    expect(V1P1_ROLE_OF).toEqual({
      aide: 'aide',
      counselor: 'administrator',
      districtAdministrator: 'administrator',
      guardian: 'guardian',
      parent: 'parent',
      principal: 'administrator',
      proctor: 'proctor',
      relative: 'relative',
      siteAdministrator: 'administrator',
      student: 'student',
      systemAdministrator: 'administrator',
      teacher: 'teacher',
    });
  });
});
