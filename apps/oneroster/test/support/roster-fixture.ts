/**
 * A small, realistic rostering data set in the OneRoster v1.1 CSV shape (reference §11.3):
 * an enterprise tenant (a district with two schools) and a school-level tenant. Tests load it
 * through the CSV importer and compute expected answers from these same records.
 *
 * Rows marked `tombstone` are imported in a first bulk import and left out of a second one,
 * so the importer marks them `tobedeleted`.
 */
export type CsvRow = Record<string, string>;

export interface FixtureRow {
  readonly file: FixtureFile;
  readonly row: CsvRow;
  readonly tombstone?: boolean;
}

export const FIXTURE_FILES = [
  'orgs',
  'academicSessions',
  'courses',
  'classes',
  'users',
  'enrollments',
  'demographics',
] as const;
export type FixtureFile = (typeof FIXTURE_FILES)[number];

/** Headers in binding order (reference §11.3). */
export const HEADERS: Readonly<Record<FixtureFile, readonly string[]>> = {
  orgs: ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'],
  academicSessions: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'type',
    'startDate',
    'endDate',
    'parentSourcedId',
    'schoolYear',
  ],
  courses: [
    'sourcedId',
    'status',
    'dateLastModified',
    'schoolYearSourcedId',
    'title',
    'courseCode',
    'grades',
    'orgSourcedId',
    'subjects',
    'subjectCodes',
  ],
  classes: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'grades',
    'courseSourcedId',
    'classCode',
    'classType',
    'location',
    'schoolSourcedId',
    'termSourcedIds',
    'subjects',
    'subjectCodes',
    'periods',
  ],
  users: [
    'sourcedId',
    'status',
    'dateLastModified',
    'enabledUser',
    'orgSourcedIds',
    'role',
    'username',
    'userIds',
    'givenName',
    'familyName',
    'middleName',
    'identifier',
    'email',
    'sms',
    'phone',
    'agentSourcedIds',
    'grades',
    'password',
    'metadata.microsoft.userFlags',
  ],
  enrollments: [
    'sourcedId',
    'status',
    'dateLastModified',
    'classSourcedId',
    'schoolSourcedId',
    'userSourcedId',
    'role',
    'primary',
    'beginDate',
    'endDate',
  ],
  demographics: [
    'sourcedId',
    'status',
    'dateLastModified',
    'birthDate',
    'sex',
    'americanIndianOrAlaskaNative',
    'asian',
    'blackOrAfricanAmerican',
    'nativeHawaiianOrOtherPacificIslander',
    'white',
    'demographicRaceTwoOrMoreRaces',
    'hispanicOrLatinoEthnicity',
    'countryOfBirthCode',
    'stateOfBirthAbbreviation',
    'cityOfBirth',
    'publicSchoolResidenceStatus',
  ],
};

export interface RosterFixture {
  readonly name: string;
  /** The tenant's root org (design §4). */
  readonly rootOrg: string;
  readonly rows: readonly FixtureRow[];
}

/** A fixture row as written below: CSV cells plus an optional `tombstone: true`. */
type SourceRow = Record<string, string | boolean>;

function rows(file: FixtureFile, list: readonly SourceRow[]): FixtureRow[] {
  return list.map(({ tombstone, ...cells }) => {
    const row: CsvRow = {};
    for (const [k, v] of Object.entries(cells)) row[k] = String(v);
    return { file, row, ...(tombstone === true ? { tombstone: true } : {}) };
  });
}

const GIVEN = [
  'Ava',
  'Liam',
  'mia',
  'Noah',
  'Zoë',
  'Ethan',
  'Olivia',
  'lucas',
  'Amelia',
  'Mason',
  'Harper',
  'Elijah',
  'Ella',
  'James',
  'Aria',
  'Benjamin',
  'Chloe',
  'Henry',
  'Nora',
  'Jack',
  'Lily',
  'Leo',
  'Zara',
  "D'Arcy",
];
const FAMILY = [
  'Smith',
  'Nguyen',
  'smith',
  'García',
  'Okafor',
  'Müller',
  'SMITH',
  'Patel',
  'Kim',
  "O'Brien",
  'Rossi',
  'Nguyen',
  'Cohen',
  'Silva',
  'Ivanova',
  'Tanaka',
  'Brown',
  'Wilson',
  'Dubois',
  'Novak',
  'Haddad',
  'Kowalski',
  'Jensen',
  'Lopez',
];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Enterprise tenant: district d1 with schools s1 (high) and s2 (middle), and a department. */
export function districtFixture(): RosterFixture {
  const orgs = rows('orgs', [
    { sourcedId: 'org-d1', name: 'Riverside Unified', type: 'district', identifier: 'D-100', parentSourcedId: '' },
    { sourcedId: 'org-s1', name: 'Riverside High', type: 'school', identifier: 'S-101', parentSourcedId: 'org-d1' },
    { sourcedId: 'org-s2', name: 'Hillcrest Middle', type: 'school', identifier: 'S-102', parentSourcedId: 'org-d1' },
    {
      sourcedId: 'org-s1-sci',
      name: 'Science Department',
      type: 'department',
      identifier: '',
      parentSourcedId: 'org-s1',
    },
    {
      sourcedId: 'org-s9',
      name: 'Closed Annex',
      type: 'school',
      identifier: 'S-109',
      parentSourcedId: 'org-d1',
      tombstone: true,
    },
  ]);
  const sessions = rows('academicSessions', [
    {
      sourcedId: 'as-y2024',
      title: '2023-24',
      type: 'schoolYear',
      startDate: '2023-08-15',
      endDate: '2024-06-30',
      parentSourcedId: '',
      schoolYear: '2024',
    },
    {
      sourcedId: 'as-t1',
      title: 'Fall 2023',
      type: 'term',
      startDate: '2023-08-15',
      endDate: '2023-12-20',
      parentSourcedId: 'as-y2024',
      schoolYear: '2024',
    },
    {
      sourcedId: 'as-t2',
      title: 'Spring 2024',
      type: 'term',
      startDate: '2024-01-08',
      endDate: '2024-06-30',
      parentSourcedId: 'as-y2024',
      schoolYear: '2024',
    },
    {
      sourcedId: 'as-t3',
      title: 'Summer 2024',
      type: 'term',
      startDate: '2024-07-01',
      endDate: '2024-08-10',
      parentSourcedId: 'as-y2024',
      schoolYear: '2024',
    },
    {
      sourcedId: 'as-gp1',
      title: 'Q1',
      type: 'gradingPeriod',
      startDate: '2023-08-15',
      endDate: '2023-10-13',
      parentSourcedId: 'as-t1',
      schoolYear: '2024',
    },
    {
      sourcedId: 'as-gp2',
      title: 'Q2',
      type: 'gradingPeriod',
      startDate: '2023-10-16',
      endDate: '2023-12-20',
      parentSourcedId: 'as-t1',
      schoolYear: '2024',
    },
    {
      sourcedId: 'as-gp3',
      title: 'Q3',
      type: 'gradingPeriod',
      startDate: '2024-01-08',
      endDate: '2024-03-22',
      parentSourcedId: 'as-t2',
      schoolYear: '2024',
    },
    {
      sourcedId: 'as-sem1',
      title: 'Semester 1',
      type: 'semester',
      startDate: '2023-08-15',
      endDate: '2023-12-20',
      parentSourcedId: 'as-y2024',
      schoolYear: '2024',
    },
  ]);
  const courses = rows('courses', [
    {
      sourcedId: 'crs-alg',
      schoolYearSourcedId: 'as-y2024',
      title: 'Algebra I',
      courseCode: 'ALG1',
      grades: '09',
      orgSourcedId: 'org-s1',
      subjects: 'Mathematics',
      subjectCodes: '02052',
    },
    {
      sourcedId: 'crs-bio',
      schoolYearSourcedId: 'as-y2024',
      title: 'Biology',
      courseCode: 'BIO',
      grades: '09,10',
      orgSourcedId: 'org-s1',
      subjects: 'Science,Life Science',
      subjectCodes: '03051',
    },
    {
      sourcedId: 'crs-eng7',
      schoolYearSourcedId: '',
      title: 'English 7',
      courseCode: '',
      grades: '07',
      orgSourcedId: 'org-s2',
      subjects: 'English',
      subjectCodes: '',
    },
    {
      sourcedId: 'crs-hist',
      schoolYearSourcedId: 'as-y2024',
      title: 'World History',
      courseCode: 'WH',
      grades: '',
      orgSourcedId: 'org-d1',
      subjects: '',
      subjectCodes: '',
    },
    // An id that is not URL-safe as is: hrefs must escape it.
    {
      sourcedId: 'crs-art 1/2',
      schoolYearSourcedId: '',
      title: 'Art "Studio" 1/2',
      courseCode: '',
      grades: '07',
      orgSourcedId: 'org-s2',
      subjects: 'Art',
      subjectCodes: '',
    },
  ]);
  const classes = rows('classes', [
    {
      sourcedId: 'cls-alg-1',
      title: 'Algebra I - P1',
      grades: '09',
      courseSourcedId: 'crs-alg',
      classCode: 'ALG1-01',
      classType: 'scheduled',
      location: 'B-104',
      schoolSourcedId: 'org-s1',
      termSourcedIds: 'as-t1',
      subjects: 'Mathematics',
      subjectCodes: '02052',
      periods: '1',
    },
    {
      sourcedId: 'cls-alg-2',
      title: 'Algebra I - P2',
      grades: '09',
      courseSourcedId: 'crs-alg',
      classCode: 'ALG1-02',
      classType: 'scheduled',
      location: 'B-104',
      schoolSourcedId: 'org-s1',
      termSourcedIds: 'as-t1,as-t2',
      subjects: 'Mathematics',
      subjectCodes: '02052',
      periods: '2,3',
    },
    {
      sourcedId: 'cls-bio-1',
      title: 'Biology',
      grades: '09,10',
      courseSourcedId: 'crs-bio',
      classCode: 'BIO-01',
      classType: 'scheduled',
      location: 'Lab 2',
      schoolSourcedId: 'org-s1',
      termSourcedIds: 'as-t2',
      subjects: 'Science',
      subjectCodes: '',
      periods: '4',
    },
    {
      sourcedId: 'cls-eng-7a',
      title: 'English 7A',
      grades: '07',
      courseSourcedId: 'crs-eng7',
      classCode: '',
      classType: 'scheduled',
      location: '',
      schoolSourcedId: 'org-s2',
      termSourcedIds: 'as-t1',
      subjects: '',
      subjectCodes: '',
      periods: '',
    },
    {
      sourcedId: 'cls-art-7',
      title: 'Art 7',
      grades: '07',
      courseSourcedId: 'crs-art 1/2',
      classCode: '',
      classType: 'scheduled',
      location: '',
      schoolSourcedId: 'org-s2',
      termSourcedIds: 'as-t2',
      subjects: '',
      subjectCodes: '',
      periods: '',
    },
    {
      sourcedId: 'cls-hr-7',
      title: 'Homeroom 7',
      grades: '07',
      courseSourcedId: 'crs-eng7',
      classCode: 'HR7',
      classType: 'homeroom',
      location: 'Room 12',
      schoolSourcedId: 'org-s2',
      termSourcedIds: 'as-t1,as-t2',
      subjects: '',
      subjectCodes: '',
      periods: '',
    },
    {
      sourcedId: 'cls-old',
      title: 'Summer Bridge',
      grades: '',
      courseSourcedId: 'crs-alg',
      classCode: '',
      classType: 'scheduled',
      location: '',
      schoolSourcedId: 'org-s1',
      termSourcedIds: 'as-t3',
      subjects: '',
      subjectCodes: '',
      periods: '',
      tombstone: true,
    },
  ]);

  const staff = [
    { id: 'usr-t-01', given: 'Ada', family: 'Lovelace', role: 'teacher', org: 'org-s1' },
    { id: 'usr-t-02', given: 'Grace', family: 'Hopper', role: 'teacher', org: 'org-s1' },
    { id: 'usr-t-03', given: 'Alan', family: 'Turing', role: 'teacher', org: 'org-s2' },
    { id: 'usr-a-01', given: 'Katherine', family: 'Johnson', role: 'administrator', org: 'org-d1' },
    { id: 'usr-x-01', given: 'Edsger', family: 'Dijkstra', role: 'aide', org: 'org-s2' },
  ];
  const userRows: SourceRow[] = staff.map((s, i) => ({
    sourcedId: s.id,
    enabledUser: 'true',
    orgSourcedIds: s.org,
    role: s.role,
    username: `${s.given.toLowerCase()}.${s.family.toLowerCase()}`,
    userIds: i === 0 ? '{LDAP:alovelace},{SIS:T-0001}' : '',
    givenName: s.given,
    familyName: s.family,
    middleName: i === 1 ? 'Brewster' : '',
    identifier: `T-${pad(i + 1)}`,
    email: `${s.given.toLowerCase()}@riverside.example`,
    sms: '',
    phone: i === 0 ? '+1 555 0100' : '',
    agentSourcedIds: '',
    grades: '',
    password: 'never-stored',
  }));
  for (let n = 1; n <= 24; n++) {
    const inS1 = n <= 14;
    userRows.push({
      sourcedId: `usr-s-${pad(n)}`,
      enabledUser: n % 7 === 0 ? 'false' : 'true',
      orgSourcedIds: inS1 ? 'org-s1' : 'org-s2',
      role: 'student',
      username: `stu${pad(n)}`,
      userIds: n % 5 === 0 ? `{SIS:${1000 + n}}` : '',
      givenName: GIVEN[n - 1] as string,
      familyName: FAMILY[n - 1] as string,
      middleName: n % 4 === 0 ? 'Q' : '',
      identifier: String(1000 + n),
      email: n % 6 === 0 ? '' : `stu${pad(n)}@students.riverside.example`,
      sms: '',
      phone: '',
      agentSourcedIds: n <= 2 ? 'usr-p-01' : '',
      grades: inS1 ? (n % 2 === 0 ? '10' : '09') : '07',
      password: '',
      'metadata.microsoft.userFlags': n % 3 === 0 ? 'IEP' : n % 5 === 0 ? 'freeLunch,ELL' : '',
      ...(n === 24 ? { tombstone: true } : {}),
    });
  }
  userRows.push({
    sourcedId: 'usr-p-01',
    enabledUser: 'false',
    orgSourcedIds: 'org-s1',
    role: 'parent',
    username: 'parent01',
    userIds: '',
    givenName: 'Pat',
    familyName: 'Smith',
    middleName: '',
    identifier: '',
    email: 'pat.smith@home.example',
    sms: '+1 555 0199',
    phone: '',
    agentSourcedIds: 'usr-s-01,usr-s-02',
    grades: '',
    password: '',
  });
  // A student enrolled at s2 although their orgs name only the district (counts for /schools/org-s2/students).
  userRows.push({
    sourcedId: 'usr-s-30',
    enabledUser: 'true',
    orgSourcedIds: 'org-d1',
    role: 'student',
    username: 'stu30',
    userIds: '',
    givenName: 'Remy',
    familyName: 'Lopez',
    middleName: '',
    identifier: '1030',
    email: 'stu30@students.riverside.example',
    sms: '',
    phone: '',
    agentSourcedIds: '',
    grades: '07',
    password: '',
  });
  const users = rows('users', userRows);

  const enr: SourceRow[] = [];
  const enroll = (cls: string, school: string, user: string, role: string, extra: SourceRow = {}) =>
    enr.push({
      sourcedId: `enr-${cls.slice(4)}-${user.slice(4)}`,
      classSourcedId: cls,
      schoolSourcedId: school,
      userSourcedId: user,
      role,
      primary: '',
      beginDate: '',
      endDate: '',
      ...extra,
    });
  enroll('cls-alg-1', 'org-s1', 'usr-t-01', 'teacher', { primary: 'true', beginDate: '2023-08-15' });
  enroll('cls-alg-2', 'org-s1', 'usr-t-01', 'teacher', { primary: 'true' });
  enroll('cls-alg-2', 'org-s1', 'usr-t-02', 'teacher', { primary: 'false' });
  enroll('cls-bio-1', 'org-s1', 'usr-t-02', 'teacher', {
    primary: 'true',
    beginDate: '2024-01-08',
    endDate: '2024-06-30',
  });
  enroll('cls-eng-7a', 'org-s2', 'usr-t-03', 'teacher', { primary: 'true' });
  enroll('cls-hr-7', 'org-s2', 'usr-t-03', 'teacher');
  enroll('cls-hr-7', 'org-s2', 'usr-x-01', 'proctor');
  enroll('cls-alg-1', 'org-s1', 'usr-a-01', 'administrator');
  for (let n = 1; n <= 14; n++) {
    const s = `usr-s-${pad(n)}`;
    enroll(n % 2 === 1 ? 'cls-alg-1' : 'cls-alg-2', 'org-s1', s, 'student');
    if (n <= 8) enroll('cls-bio-1', 'org-s1', s, 'student', n === 3 ? { tombstone: true } : {});
  }
  for (let n = 15; n <= 24; n++) {
    const s = `usr-s-${pad(n)}`;
    enroll('cls-eng-7a', 'org-s2', s, 'student', n === 24 ? { tombstone: true } : {});
    enroll('cls-hr-7', 'org-s2', s, 'student', n === 24 ? { tombstone: true } : {});
  }
  enroll('cls-hr-7', 'org-s2', 'usr-s-30', 'student', { endDate: '2024-06-30' });
  enroll('cls-old', 'org-s1', 'usr-s-05', 'student', { tombstone: true });
  const enrollments = rows('enrollments', enr);

  const demo: CsvRow[] = [];
  for (let n = 1; n <= 6; n++) {
    demo.push({
      sourcedId: `usr-s-${pad(n)}`,
      birthDate: `2008-0${n}-1${n}`,
      sex: n % 2 === 0 ? 'female' : 'male',
      americanIndianOrAlaskaNative: 'false',
      asian: n === 2 ? 'true' : 'false',
      blackOrAfricanAmerican: n === 3 ? 'true' : '',
      nativeHawaiianOrOtherPacificIslander: '',
      white: n >= 4 ? 'true' : 'false',
      demographicRaceTwoOrMoreRaces: n === 4 ? 'true' : 'false',
      hispanicOrLatinoEthnicity: n === 5 ? 'true' : 'false',
      countryOfBirthCode: n === 6 ? 'MX' : 'US',
      stateOfBirthAbbreviation: n === 6 ? '' : 'CA',
      cityOfBirth: n === 6 ? 'Guadalajara' : 'Riverside',
      publicSchoolResidenceStatus: n === 1 ? '01652' : '',
    });
  }
  const demographics = rows('demographics', demo);
  return {
    name: 'district',
    rootOrg: 'org-d1',
    rows: [...orgs, ...sessions, ...courses, ...classes, ...users, ...enrollments, ...demographics],
  };
}

/** School-level tenant. `usr-s-01` deliberately reuses a sourcedId of the district tenant. */
export function schoolFixture(): RosterFixture {
  return {
    name: 'school',
    rootOrg: 'org-b1',
    rows: [
      ...rows('orgs', [
        { sourcedId: 'org-b1', name: 'Bayview Primary', type: 'school', identifier: 'B-1', parentSourcedId: '' },
      ]),
      ...rows('academicSessions', [
        {
          sourcedId: 'bv-y2024',
          title: '2024',
          type: 'schoolYear',
          startDate: '2024-01-29',
          endDate: '2024-12-13',
          parentSourcedId: '',
          schoolYear: '2024',
        },
        {
          sourcedId: 'bv-t1',
          title: 'Term 1',
          type: 'term',
          startDate: '2024-01-29',
          endDate: '2024-04-12',
          parentSourcedId: 'bv-y2024',
          schoolYear: '2024',
        },
      ]),
      ...rows('courses', [
        {
          sourcedId: 'bv-crs-1',
          schoolYearSourcedId: 'bv-y2024',
          title: 'Year 3',
          courseCode: 'Y3',
          grades: '03',
          orgSourcedId: 'org-b1',
          subjects: '',
          subjectCodes: '',
        },
      ]),
      ...rows('classes', [
        {
          sourcedId: 'bv-cls-1',
          title: '3B',
          grades: '03',
          courseSourcedId: 'bv-crs-1',
          classCode: '3B',
          classType: 'homeroom',
          location: '',
          schoolSourcedId: 'org-b1',
          termSourcedIds: 'bv-t1',
          subjects: '',
          subjectCodes: '',
          periods: '',
        },
      ]),
      ...rows('users', [
        {
          sourcedId: 'bv-t-01',
          enabledUser: 'true',
          orgSourcedIds: 'org-b1',
          role: 'teacher',
          username: 'mrs.wong',
          userIds: '',
          givenName: 'Mei',
          familyName: 'Wong',
          middleName: '',
          identifier: 'BT1',
          email: '',
          sms: '',
          phone: '',
          agentSourcedIds: '',
          grades: '',
          password: '',
        },
        {
          sourcedId: 'usr-s-01',
          enabledUser: 'true',
          orgSourcedIds: 'org-b1',
          role: 'student',
          username: 'bv.student1',
          userIds: '',
          givenName: 'Oscar',
          familyName: 'Bayview',
          middleName: '',
          identifier: 'B001',
          email: '',
          sms: '',
          phone: '',
          agentSourcedIds: '',
          grades: '03',
          password: '',
        },
        {
          sourcedId: 'bv-s-02',
          enabledUser: 'true',
          orgSourcedIds: 'org-b1',
          role: 'student',
          username: 'bv.student2',
          userIds: '',
          givenName: 'Ruby',
          familyName: 'Bayview',
          middleName: '',
          identifier: 'B002',
          email: '',
          sms: '',
          phone: '',
          agentSourcedIds: '',
          grades: '03',
          password: '',
        },
      ]),
      ...rows('enrollments', [
        {
          sourcedId: 'bv-enr-1',
          classSourcedId: 'bv-cls-1',
          schoolSourcedId: 'org-b1',
          userSourcedId: 'bv-t-01',
          role: 'teacher',
          primary: 'true',
          beginDate: '',
          endDate: '',
        },
        {
          sourcedId: 'bv-enr-2',
          classSourcedId: 'bv-cls-1',
          schoolSourcedId: 'org-b1',
          userSourcedId: 'usr-s-01',
          role: 'student',
          primary: '',
          beginDate: '',
          endDate: '',
        },
        {
          sourcedId: 'bv-enr-3',
          classSourcedId: 'bv-cls-1',
          schoolSourcedId: 'org-b1',
          userSourcedId: 'bv-s-02',
          role: 'student',
          primary: '',
          beginDate: '',
          endDate: '',
        },
      ]),
      ...rows('demographics', [
        {
          sourcedId: 'usr-s-01',
          birthDate: '2016-05-05',
          sex: 'female',
          americanIndianOrAlaskaNative: '',
          asian: '',
          blackOrAfricanAmerican: '',
          nativeHawaiianOrOtherPacificIslander: '',
          white: '',
          demographicRaceTwoOrMoreRaces: '',
          hispanicOrLatinoEthnicity: '',
          countryOfBirthCode: 'AU',
          stateOfBirthAbbreviation: '',
          cityOfBirth: '',
          publicSchoolResidenceStatus: '',
        },
      ]),
    ],
  };
}

/** The records of one file, optionally without the tombstoned ones. */
export function fileRows(fixture: RosterFixture, file: FixtureFile, o: { withTombstones: boolean }): CsvRow[] {
  return fixture.rows.filter((r) => r.file === file && (o.withTombstones || !r.tombstone)).map((r) => r.row);
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The CSV text of one file (header + rows), `status`/`dateLastModified` left blank as bulk files expect. */
export function csvText(fixture: RosterFixture, file: FixtureFile, o: { withTombstones: boolean }): string {
  const header = HEADERS[file];
  const lines = [header.join(',')];
  for (const row of fileRows(fixture, file, o))
    lines.push(header.map((h) => csvCell(h === 'status' || h === 'dateLastModified' ? '' : (row[h] ?? ''))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** `manifest.csv` for a bulk package of every rostering file. */
export function manifestText(): string {
  const lines = ['propertyName,value', 'manifest.version,1.0', 'oneroster.version,1.1'];
  for (const f of [
    'academicSessions',
    'categories',
    'classes',
    'classResources',
    'courses',
    'courseResources',
    'demographics',
    'enrollments',
    'lineItems',
    'orgs',
    'resources',
    'results',
    'users',
  ]) {
    lines.push(`file.${f},${(FIXTURE_FILES as readonly string[]).includes(f) ? 'bulk' : 'absent'}`);
  }
  lines.push('source.systemName,fixture');
  return `${lines.join('\r\n')}\r\n`;
}
