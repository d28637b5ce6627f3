import { constituenciesForRoles } from './lti-roles';

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2';

describe('LTI roles → constituencies', () => {
  it.each([
    [[`${LIS}/membership#Learner`], ['students', 'student']],
    [[`${LIS}/institution/person#Student`], ['students', 'student']],
    [[`${LIS}/membership#Instructor`], ['teachers', 'teacher', 'staff']],
    [[`${LIS}/membership/Instructor#TeachingAssistant`], ['teachers', 'teacher', 'staff']],
    [[`${LIS}/membership#Mentor`], ['guardians', 'guardian', 'parents', 'parent']],
    [
      [`${LIS}/membership#Learner`, `${LIS}/institution/person#Administrator`],
      ['administrators', 'administrator', 'admin', 'staff'],
    ],
    [
      [`${LIS}/membership#Instructor`, `${LIS}/membership#Learner`],
      ['teachers', 'teacher', 'staff'],
    ],
  ])('%j → %j', (roles, expected) => {
    expect(constituenciesForRoles(roles)).toEqual(expected);
  });

  it.each([
    [[]],
    [['http://example.com/role#Boss']],
    [[`${LIS}/membershipx/Learner#Foo`]],
    ['Learner'],
    [undefined],
    [[42]],
  ])('knows no constituency for %j', (roles) => {
    expect(constituenciesForRoles(roles)).toEqual([]);
  });
});
