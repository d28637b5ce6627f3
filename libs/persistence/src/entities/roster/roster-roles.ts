export type RosterRole =
  'administrator' | 'aide' | 'guardian' | 'parent' | 'proctor' | 'relative' | 'student' | 'teacher';

/** Partition of users served by `/students` (student), `/teachers` (staff) and neither (other). */
export type RosterRoleGroup = 'student' | 'staff' | 'other';

export function roleGroupOf(role: RosterRole): RosterRoleGroup {
  switch (role) {
    case 'student':
      return 'student';
    case 'teacher':
    case 'administrator':
    case 'aide':
    case 'proctor':
      return 'staff';
    case 'guardian':
    case 'parent':
    case 'relative':
      return 'other';
  }
}
