/** Every rostering read of the service, as the tests call it (reference §6, spec 4.2). */
export interface CollectionCase {
  readonly op: string;
  readonly path: string;
  readonly key: string;
  readonly ids?: Record<string, string>;
}

export interface SingleCase {
  readonly op: string;
  readonly path: string;
  readonly key: string;
  readonly id: string;
  /** An id that exists but is not of this endpoint's kind (404). */
  readonly wrongKind?: string;
}

/** Collections over the district fixture, with path ids that have members. */
export const COLLECTION_CASES: readonly CollectionCase[] = [
  { op: 'getAllAcademicSessions', path: 'academicSessions', key: 'academicSessions' },
  { op: 'getAllTerms', path: 'terms', key: 'academicSessions' },
  { op: 'getAllGradingPeriods', path: 'gradingPeriods', key: 'academicSessions' },
  { op: 'getAllClasses', path: 'classes', key: 'classes' },
  { op: 'getAllCourses', path: 'courses', key: 'courses' },
  { op: 'getAllDemographics', path: 'demographics', key: 'demographics' },
  { op: 'getAllEnrollments', path: 'enrollments', key: 'enrollments' },
  { op: 'getAllOrgs', path: 'orgs', key: 'orgs' },
  { op: 'getAllSchools', path: 'schools', key: 'orgs' },
  { op: 'getAllUsers', path: 'users', key: 'users' },
  { op: 'getAllStudents', path: 'students', key: 'users' },
  { op: 'getAllTeachers', path: 'teachers', key: 'users' },
  { op: 'getCoursesForSchool', path: 'schools/org-s1/courses', key: 'courses', ids: { school_id: 'org-s1' } },
  { op: 'getClassesForSchool', path: 'schools/org-s1/classes', key: 'classes', ids: { school_id: 'org-s1' } },
  {
    op: 'getEnrollmentsForSchool',
    path: 'schools/org-s2/enrollments',
    key: 'enrollments',
    ids: { school_id: 'org-s2' },
  },
  {
    op: 'getEnrollmentsForClassInSchool',
    path: 'schools/org-s1/classes/cls-alg-1/enrollments',
    key: 'enrollments',
    ids: { school_id: 'org-s1', class_id: 'cls-alg-1' },
  },
  {
    op: 'getStudentsForClassInSchool',
    path: 'schools/org-s1/classes/cls-bio-1/students',
    key: 'users',
    ids: { school_id: 'org-s1', class_id: 'cls-bio-1' },
  },
  {
    op: 'getTeachersForClassInSchool',
    path: 'schools/org-s2/classes/cls-hr-7/teachers',
    key: 'users',
    ids: { school_id: 'org-s2', class_id: 'cls-hr-7' },
  },
  { op: 'getStudentsForSchool', path: 'schools/org-s2/students', key: 'users', ids: { school_id: 'org-s2' } },
  { op: 'getTeachersForSchool', path: 'schools/org-s1/teachers', key: 'users', ids: { school_id: 'org-s1' } },
  { op: 'getTermsForSchool', path: 'schools/org-s1/terms', key: 'academicSessions', ids: { school_id: 'org-s1' } },
  { op: 'getClassesForTerm', path: 'terms/as-t2/classes', key: 'classes', ids: { id: 'as-t2' } },
  { op: 'getGradingPeriodsForTerm', path: 'terms/as-t1/gradingPeriods', key: 'academicSessions', ids: { id: 'as-t1' } },
  { op: 'getClassesForCourse', path: 'courses/crs-alg/classes', key: 'classes', ids: { id: 'crs-alg' } },
  { op: 'getClassesForStudent', path: 'students/usr-s-03/classes', key: 'classes', ids: { id: 'usr-s-03' } },
  { op: 'getClassesForTeacher', path: 'teachers/usr-t-01/classes', key: 'classes', ids: { id: 'usr-t-01' } },
  { op: 'getClassesForUser', path: 'users/usr-a-01/classes', key: 'classes', ids: { id: 'usr-a-01' } },
  { op: 'getStudentsForClass', path: 'classes/cls-hr-7/students', key: 'users', ids: { id: 'cls-hr-7' } },
  { op: 'getTeachersForClass', path: 'classes/cls-alg-2/teachers', key: 'users', ids: { id: 'cls-alg-2' } },
];

/** Relationship reads again, with parents that are unknown, of the wrong kind or outside the school. */
export const EMPTY_CASES: readonly CollectionCase[] = [
  { op: 'getCoursesForSchool', path: 'schools/NOPE/courses', key: 'courses', ids: { school_id: 'NOPE' } },
  { op: 'getClassesForSchool', path: 'schools/org-d1/classes', key: 'classes', ids: { school_id: 'org-d1' } },
  {
    op: 'getEnrollmentsForClassInSchool',
    path: 'schools/org-s2/classes/cls-alg-1/enrollments',
    key: 'enrollments',
    ids: { school_id: 'org-s2', class_id: 'cls-alg-1' },
  },
  {
    op: 'getStudentsForClassInSchool',
    path: 'schools/org-s2/classes/cls-bio-1/students',
    key: 'users',
    ids: { school_id: 'org-s2', class_id: 'cls-bio-1' },
  },
  { op: 'getTermsForSchool', path: 'schools/NOPE/terms', key: 'academicSessions', ids: { school_id: 'NOPE' } },
  { op: 'getClassesForTerm', path: 'terms/NOPE/classes', key: 'classes', ids: { id: 'NOPE' } },
  {
    op: 'getStudentsForClass',
    path: 'classes/cls-alg-2/students?filter=' + encodeURIComponent("role='teacher'"),
    key: 'users',
    ids: { id: 'cls-alg-2' },
  },
  { op: 'getClassesForStudent', path: 'students/usr-t-01/classes', key: 'classes', ids: { id: 'usr-t-01' } },
];

export const SINGLE_CASES: readonly SingleCase[] = [
  { op: 'getAcademicSession', path: 'academicSessions', key: 'academicSession', id: 'as-gp1' },
  { op: 'getTerm', path: 'terms', key: 'academicSession', id: 'as-t1', wrongKind: 'as-gp1' },
  { op: 'getGradingPeriod', path: 'gradingPeriods', key: 'academicSession', id: 'as-gp2', wrongKind: 'as-t1' },
  { op: 'getClass', path: 'classes', key: 'class', id: 'cls-alg-2' },
  { op: 'getCourse', path: 'courses', key: 'course', id: 'crs-bio' },
  { op: 'getDemographics', path: 'demographics', key: 'demographics', id: 'usr-s-02' },
  { op: 'getEnrollment', path: 'enrollments', key: 'enrollment', id: 'enr-alg-1-t-01' },
  { op: 'getOrg', path: 'orgs', key: 'org', id: 'org-s1-sci' },
  { op: 'getSchool', path: 'schools', key: 'org', id: 'org-s2', wrongKind: 'org-d1' },
  { op: 'getUser', path: 'users', key: 'user', id: 'usr-p-01' },
  { op: 'getStudent', path: 'students', key: 'user', id: 'usr-s-10', wrongKind: 'usr-t-01' },
  { op: 'getTeacher', path: 'teachers', key: 'user', id: 'usr-x-01', wrongKind: 'usr-s-10' },
];
