/**
 * OneRoster 1.2 CSV packages for importer tests, as editable rows (written with the 1.1 helpers
 * of `csv-package.ts`): every file of the 1.2 binding, headers from its layouts.
 */
import { standardHeaders, V1P2_FILE_TYPES, type RosterFileType } from '../../src/imports/csv-layout';
import { FILE_LAYOUTS_V1P2 } from '../../src/imports/csv-layout-v1p2';
import type { CsvPackage, Rows } from './csv-package';

const file = (type: RosterFileType, rows: Rows) => ({ header: standardHeaders(FILE_LAYOUTS_V1P2[type]), rows });
const fileName = (type: RosterFileType) => FILE_LAYOUTS_V1P2[type].fileName;

/** A CASE learning objective id (CASE ids are UUIDs). */
export const CASE_ID = 'f0e1d2c3-0000-4000-8000-000000000001';
/** Profile sourcedIds: one already a URI (kept), one that is not (served as a percent-encoded URN). */
export const PROFILE_URI = 'https://idp.example/profiles/t1';
export const PROFILE_PLAIN = 'prof s1/ü';

function rostering(): Record<string, { header: string[]; rows: Rows }> {
  return {
    'orgs.csv': file('orgs', [
      { sourcedId: 'org-d', name: 'North District', type: 'district', identifier: 'D-1' },
      { sourcedId: 'org-s1', name: 'Hill School', type: 'school', identifier: 'S-1', parentSourcedId: 'org-d' },
      { sourcedId: 'org-s2', name: 'Vale School', type: 'School', identifier: 'S-2', parentSourcedId: 'org-d' },
      { sourcedId: 'org-t', name: 'Learning Trust', type: 'ext:trust' },
    ]),
    'academicSessions.csv': file('academicSessions', [
      {
        sourcedId: 'as-y',
        title: '2025',
        type: 'schoolYear',
        startDate: '2025-01-28',
        endDate: '2025-12-19',
        schoolYear: '2025',
      },
      {
        sourcedId: 'as-t1',
        title: 'Term 1',
        type: 'term',
        startDate: '2025-01-28',
        endDate: '2025-04-11',
        parentSourcedId: 'as-y',
        schoolYear: '2025',
      },
      {
        sourcedId: 'as-gp1',
        title: 'Term 1 Weeks 1-5',
        type: 'gradingPeriod',
        startDate: '2025-01-28',
        endDate: '2025-02-28',
        parentSourcedId: 'as-t1',
        schoolYear: '2025',
      },
      {
        sourcedId: 'as-x',
        title: 'Block A',
        type: 'ext:block',
        startDate: '2025-01-28',
        endDate: '2025-03-28',
        parentSourcedId: 'as-y',
        schoolYear: '2025',
      },
    ]),
    'courses.csv': file('courses', [
      {
        sourcedId: 'crs-1',
        schoolYearSourcedId: 'as-y',
        title: 'Mathematics 7',
        courseCode: 'MAT7',
        grades: '07',
        orgSourcedId: 'org-s1',
      },
      { sourcedId: 'crs-2', title: 'English 8', courseCode: 'ENG8', orgSourcedId: 'org-s2' },
    ]),
    'classes.csv': file('classes', [
      {
        sourcedId: 'cls-1',
        title: 'Maths 7A',
        courseSourcedId: 'crs-1',
        classCode: '7A',
        classType: 'scheduled',
        schoolSourcedId: 'org-s1',
        termSourcedIds: 'as-t1',
      },
      {
        sourcedId: 'cls-2',
        title: 'English 8B',
        courseSourcedId: 'crs-2',
        classType: 'ext:online',
        schoolSourcedId: 'org-s2',
        termSourcedIds: 'as-t1',
      },
    ]),
    'users.csv': file('users', [
      {
        sourcedId: 'usr-a1',
        enabledUser: 'true',
        username: 'ada.admin',
        givenName: 'Ada',
        familyName: 'Park',
        primaryOrgSourcedId: 'org-d',
      },
      {
        sourcedId: 'usr-p1',
        enabledUser: 'false',
        username: 'pat.parent',
        givenName: 'Pat',
        familyName: 'Nguyen',
        agentSourcedIds: 'usr-s1',
        password: 'never-stored',
      },
      {
        sourcedId: 'usr-s1',
        enabledUser: 'true',
        username: 'sam.student',
        userIds: '{SIS:1001}',
        givenName: 'Samantha',
        familyName: 'Nguyen',
        email: 'sam@school.example',
        grades: '07',
        userMasterIdentifier: 'MID-1001',
        preferredGivenName: 'Sam',
        preferredMiddleName: 'J',
        preferredFamilyName: 'Win',
        primaryOrgSourcedId: 'org-s1',
        pronouns: 'they/them',
      },
      {
        sourcedId: 'usr-s2',
        enabledUser: 'true',
        username: 'ali.student',
        givenName: 'Ali',
        familyName: 'Rahman',
        grades: '08',
      },
      {
        sourcedId: 'usr-t1',
        enabledUser: 'true',
        username: 'tess.teacher',
        givenName: 'Tess',
        familyName: 'Ong',
        email: 'tess@school.example',
        primaryOrgSourcedId: 'org-s2',
      },
    ]),
    'userProfiles.csv': file('userProfiles', [
      {
        sourcedId: PROFILE_URI,
        userSourcedId: 'usr-t1',
        profileType: 'LMS',
        vendorId: 'acme',
        applicationId: 'lms',
        description: 'Teacher login',
        credentialType: 'password',
        username: 'tess',
        password: 'never-stored',
      },
      {
        sourcedId: PROFILE_PLAIN,
        userSourcedId: 'usr-s1',
        profileType: 'Reading app',
        vendorId: 'readco',
        credentialType: 'sso',
        username: 'sam@school.example',
      },
    ]),
    'roles.csv': file('roles', [
      {
        sourcedId: 'r-a1a',
        userSourcedId: 'usr-a1',
        roleType: 'primary',
        role: 'districtAdministrator',
        orgSourcedId: 'org-d',
      },
      { sourcedId: 'r-a1b', userSourcedId: 'usr-a1', roleType: 'secondary', role: 'principal', orgSourcedId: 'org-s1' },
      { sourcedId: 'r-p1', userSourcedId: 'usr-p1', roleType: 'primary', role: 'parent', orgSourcedId: 'org-s1' },
      {
        sourcedId: 'r-s1',
        userSourcedId: 'usr-s1',
        roleType: 'Primary',
        role: 'Student',
        beginDate: '2025-01-28',
        endDate: '2025-12-19',
        orgSourcedId: 'org-s1',
        userProfileSourcedId: PROFILE_PLAIN,
      },
      { sourcedId: 'r-s2', userSourcedId: 'usr-s2', roleType: 'primary', role: 'student', orgSourcedId: 'org-s2' },
      {
        sourcedId: 'r-t1a',
        userSourcedId: 'usr-t1',
        roleType: 'primary',
        role: 'teacher',
        orgSourcedId: 'org-s1',
        userProfileSourcedId: PROFILE_URI,
      },
      { sourcedId: 'r-t1b', userSourcedId: 'usr-t1', roleType: 'primary', role: 'teacher', orgSourcedId: 'org-s2' },
      { sourcedId: 'r-t1c', userSourcedId: 'usr-t1', roleType: 'secondary', role: 'ext:coach', orgSourcedId: 'org-s1' },
    ]),
    'enrollments.csv': file('enrollments', [
      {
        sourcedId: 'enr-1',
        classSourcedId: 'cls-1',
        schoolSourcedId: 'org-s1',
        userSourcedId: 'usr-t1',
        role: 'teacher',
        primary: 'true',
      },
      {
        sourcedId: 'enr-2',
        classSourcedId: 'cls-1',
        schoolSourcedId: 'org-s1',
        userSourcedId: 'usr-s1',
        role: 'student',
      },
      {
        sourcedId: 'enr-3',
        classSourcedId: 'cls-2',
        schoolSourcedId: 'org-s2',
        userSourcedId: 'usr-s2',
        role: 'ext:auditor',
      },
    ]),
    'demographics.csv': file('demographics', [{ sourcedId: 'usr-s1', birthDate: '2012-03-04', sex: 'other' }]),
  };
}

function resourcesAndGradebook(): Record<string, { header: string[]; rows: Rows }> {
  return {
    'resources.csv': file('resources', [
      {
        sourcedId: 'res-1',
        vendorResourceId: 'VR-100',
        title: 'Algebra e-book',
        roles: 'student,ext:tutor',
        importance: 'primary',
      },
      { sourcedId: 'res-2', vendorResourceId: 'VR-200', title: 'Planner' },
    ]),
    'userResources.csv': file('userResources', [
      { sourcedId: 'ur-1', userSourcedId: 'usr-s1', classSourcedId: 'cls-1', resourceSourcedId: 'res-1' },
      { sourcedId: 'ur-2', userSourcedId: 'usr-t1', orgSourcedId: 'org-s1', resourceSourcedId: 'res-2' },
      { sourcedId: 'ur-3', userSourcedId: 'usr-t1', resourceSourcedId: 'res-1' },
    ]),
    'classResources.csv': file('classResources', [
      { sourcedId: 'cr-1', classSourcedId: 'cls-1', resourceSourcedId: 'res-1' },
    ]),
    'courseResources.csv': file('courseResources', [
      { sourcedId: 'kr-1', courseSourcedId: 'crs-1', resourceSourcedId: 'res-1' },
    ]),
    'categories.csv': file('categories', [
      { sourcedId: 'cat-1', title: 'Homework', weight: '0.4' },
      { sourcedId: 'cat-2', title: 'Tests' },
    ]),
    'scoreScales.csv': file('scoreScales', [
      {
        sourcedId: 'ss-1',
        title: 'Letter grades',
        type: 'letter',
        orgSourcedId: 'org-s1',
        courseSourcedId: 'crs-1',
        classSourcedId: 'cls-1',
        scoreScaleValue: '{A:90 - 100},{B:80 - 89},{C:0 - 79}',
      },
      {
        sourcedId: 'ss-2',
        title: 'Pass/fail',
        type: 'binary',
        orgSourcedId: 'org-s2',
        classSourcedId: 'cls-2',
        scoreScaleValue: '{Pass:50 - 100},{Fail:0 - 49}',
      },
    ]),
    'lineItems.csv': file('lineItems', [
      {
        sourcedId: 'li-1',
        title: 'Worksheet 1',
        assignDate: '2025-02-03T09:00:00Z',
        dueDate: '2025-02-10T09:00:00Z',
        classSourcedId: 'cls-1',
        categorySourcedId: 'cat-1',
        academicSessionSourcedId: 'as-gp1',
        resultValueMin: '0',
        resultValueMax: '10',
        schoolSourcedId: 'org-s1',
      },
      {
        sourcedId: 'li-2',
        title: 'Test',
        assignDate: '2025-03-01T10:00:00Z',
        dueDate: '2025-03-01T11:00:00Z',
        classSourcedId: 'cls-2',
        categorySourcedId: 'cat-2',
        academicSessionSourcedId: 'as-t1',
        schoolSourcedId: 'org-s2',
      },
    ]),
    'lineItemScoreScales.csv': file('lineItemScoreScales', [
      { sourcedId: 'lss-1', title: 'Letters', lineItemSourcedId: 'li-1', scoreScaleSourcedId: 'ss-1' },
    ]),
    'lineItemLearningObjectiveIds.csv': file('lineItemLearningObjectiveIds', [
      { sourcedId: 'llo-1', lineItemSourcedId: 'li-1', source: 'CASE', learningObjectiveId: CASE_ID },
      { sourcedId: 'llo-2', lineItemSourcedId: 'li-1', source: '/state', learningObjectiveId: 'MA.7.1' },
      { sourcedId: 'llo-3', lineItemSourcedId: 'li-1', source: 'state', learningObjectiveId: 'MA.7.2' },
    ]),
    'results.csv': file('results', [
      {
        sourcedId: 'rs-1',
        lineItemSourcedId: 'li-1',
        studentSourcedId: 'usr-s1',
        scoreStatus: 'fully graded',
        score: '9.5',
        scoreDate: '2025-02-11',
        comment: 'Well done',
        textScore: 'A',
        classSourcedId: 'cls-1',
        late: 'false',
        missing: 'FALSE',
      },
      {
        sourcedId: 'rs-2',
        lineItemSourcedId: 'li-2',
        studentSourcedId: 'usr-s2',
        scoreStatus: 'exempt',
        scoreDate: '2025-03-02',
      },
      {
        sourcedId: 'rs-3',
        lineItemSourcedId: 'li-2',
        studentSourcedId: 'usr-s1',
        scoreStatus: 'submitted',
        scoreDate: '2025-03-02',
        textScore: 'Incomplete',
        inProgress: 'true',
        incomplete: 'true',
      },
    ]),
    'resultScoreScales.csv': file('resultScoreScales', [
      { sourcedId: 'rss-1', resultSourcedId: 'rs-1', scoreScaleSourcedId: 'ss-1' },
    ]),
    'resultLearningObjectiveIds.csv': file('resultLearningObjectiveIds', [
      { sourcedId: 'rlo-1', resultSourcedId: 'rs-1', source: 'case', learningObjectiveId: CASE_ID, score: '3' },
      { sourcedId: 'rlo-2', resultSourcedId: 'rs-1', source: 'state', learningObjectiveId: 'MA.7.1', textScore: 'met' },
    ]),
  };
}

/**
 * Every file of the 1.2 binding, bulk: a district with two schools and an `ext:` trust; an
 * administrator (district administrator, principal), a parent, two students, a teacher at both
 * schools (with an `ext:` secondary role); two profiles; user resources; score scales, line
 * items and results with their links and learning objectives.
 */
export function v1p2Package(): CsvPackage {
  const manifest: [string, string][] = [
    ['manifest.version', '1.0'],
    ['oneroster.version', '1.2'],
    ...V1P2_FILE_TYPES.map((t): [string, string] => [`file.${t}`, 'bulk']),
    ['source.systemName', 'Test SIS 1.2'],
  ];
  return { manifest, files: { ...rostering(), ...resourcesAndGradebook() } };
}

/** A 1.2 delta package holding only these files (rows with `status` and `dateLastModified`). */
export function v1p2Delta(files: Partial<Record<RosterFileType, Rows>>): CsvPackage {
  const manifest: [string, string][] = [
    ['manifest.version', '1.0'],
    ['oneroster.version', '1.2'],
    ...V1P2_FILE_TYPES.map((t): [string, string] => [`file.${t}`, files[t] ? 'delta' : 'absent']),
  ];
  const out: CsvPackage['files'] = {};
  for (const [type, rows] of Object.entries(files) as [RosterFileType, Rows][]) out[fileName(type)] = file(type, rows);
  return { manifest, files: out };
}
