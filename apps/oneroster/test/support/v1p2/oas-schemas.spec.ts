import {
  expectV1p2,
  findV1p2Operation,
  responseSchemaOf,
  V1P2_OPERATIONS,
  V1P2_SERVICES,
  v1p2SchemaNames,
  validateV1p2,
  type V1p2Operation,
} from './oas-schemas';

/* The validators against hand-written bodies: the reference's §5.3 examples, then one defect at a time. */

const ORG_REF = { href: 'https://h/ims/oneroster/rostering/v1p2/orgs/sch-1', sourcedId: 'sch-1', type: 'org' };

/** Reference §5.3, GET /users/u-1. */
function exampleUser(): Record<string, unknown> {
  return {
    sourcedId: 'u-1',
    status: 'active',
    dateLastModified: '2025-08-20T14:03:11.000Z',
    userMasterIdentifier: 'MID-100234',
    username: 'jdoe',
    enabledUser: 'true',
    givenName: 'Jane',
    familyName: 'Doe',
    preferredFirstName: 'Janie',
    pronouns: 'she/her',
    userIds: [{ type: 'SIS', identifier: '100234' }],
    roles: [{ roleType: 'primary', role: 'student', org: { ...ORG_REF }, beginDate: '2025-08-15' }],
    primaryOrg: { ...ORG_REF },
    email: 'jdoe@example.org',
    grades: ['09'],
  };
}

/** Reference §5.3, POST /lineItems/li-7/results. */
const EXAMPLE_RESULTS = {
  results: [
    {
      sourcedId: 'tmp-1',
      status: 'active',
      dateLastModified: '2025-09-01T10:00:00.000Z',
      lineItem: { href: 'https://h/ims/oneroster/gradebook/v1p2/lineItems/li-7', sourcedId: 'li-7', type: 'lineItem' },
      student: { href: 'https://h/ims/oneroster/rostering/v1p2/users/u-1', sourcedId: 'u-1', type: 'user' },
      scoreStatus: 'fully graded',
      score: 87.5,
      scoreDate: '2025-09-01',
    },
  ],
};

const EXAMPLE_PAIRS = { sourcedIdPairs: [{ suppliedSourcedId: 'tmp-1', allocatedSourcedId: 'res-5d1c' }] };

/** Reference §5.3, the 404 body. */
const EXAMPLE_404 = {
  imsx_codeMajor: 'failure',
  imsx_severity: 'error',
  imsx_description: "Unknown Object: no class with sourcedId 'cls-404'",
  imsx_CodeMinor: {
    imsx_codeMinorField: [{ imsx_codeMinorFieldName: 'TargetEndSystem', imsx_codeMinorFieldValue: 'unknownobject' }],
  },
};

const userBody = (changes: Record<string, unknown>) => ({ user: { ...exampleUser(), ...changes } });
const userErrors = (changes: Record<string, unknown>) =>
  validateV1p2('rostering', 'SingleUserDType', userBody(changes));

describe('OneRoster 1.2 schemas from the official OpenAPI files', () => {
  describe('the reference examples pass', () => {
    it('a user with roles and primaryOrg, alone and in a collection', () => {
      expect(validateV1p2('rostering', 'SingleUserDType', { user: exampleUser() })).toEqual([]);
      expect(validateV1p2('rostering', 'UserSetDType', { users: [exampleUser(), exampleUser()] })).toEqual([]);
      expect(validateV1p2('rostering', 'UserSetDType', { users: [] })).toEqual([]);
      expect(() => expectV1p2('rostering', 'SingleUserDType', { user: exampleUser() })).not.toThrow();
    });

    it('the POST results body and its sourcedIdPairs answer', () => {
      expect(validateV1p2('gradebook', 'ResultSetDType', EXAMPLE_RESULTS)).toEqual([]);
      expect(validateV1p2('gradebook', 'GUIDPairSetDType', EXAMPLE_PAIRS)).toEqual([]);
    });

    it('the bare imsx 404 body, in every service', () => {
      for (const service of V1P2_SERVICES)
        expect(validateV1p2(service, 'imsx_StatusInfoDType', EXAMPLE_404)).toEqual([]);
    });
  });

  describe('defects fail, each with a line naming where', () => {
    it('a JSON boolean enabledUser', () => {
      const errors = userErrors({ enabledUser: true });
      expect(errors).toContain('/user/enabledUser: true is not of type string');
      expect(errors).toContain('/user/enabledUser: true is not one of "true", "false"');
    });

    it('an unknown key, on the body and on the user (closed objects)', () => {
      expect(validateV1p2('rostering', 'SingleUserDType', { user: exampleUser(), statusInfoSet: [] })).toEqual([
        '(root): property "statusInfoSet" is not allowed (closed object)',
      ]);
      expect(userErrors({ role: 'student' })).toEqual(['/user: property "role" is not allowed (closed object)']);
    });

    it('null for an optional field', () => {
      expect(userErrors({ middleName: null })).toEqual(['/user/middleName: null is not of type string']);
    });

    it('a GUIDRef without type, and one with the wrong type literal', () => {
      const { type: _type, ...untyped } = ORG_REF;
      expect(userErrors({ primaryOrg: untyped })).toEqual(['/user/primaryOrg: missing required property "type"']);
      expect(userErrors({ primaryOrg: { ...ORG_REF, type: 'school' } })).toEqual([
        '/user/primaryOrg/type: "school" is not one of "org"',
      ]);
      const wrongRoleOrg = { roleType: 'primary', role: 'student', org: { ...ORG_REF, type: 'user' } };
      expect(userErrors({ roles: [wrongRoleOrg] })).toEqual(['/user/roles/0/org/type: "user" is not one of "org"']);
    });

    it('an error wrapped in statusInfoSet, or carrying the v1.1 message ref', () => {
      expect(validateV1p2('rostering', 'imsx_StatusInfoDType', { statusInfoSet: [EXAMPLE_404] })).toEqual([
        '(root): missing required property "imsx_codeMajor"',
        '(root): missing required property "imsx_severity"',
        '(root): property "statusInfoSet" is not allowed (closed object)',
      ]);
      expect(
        validateV1p2('gradebook', 'imsx_StatusInfoDType', { ...EXAMPLE_404, imsx_messageRefIdentifier: 'm-1' }),
      ).toHaveLength(1);
    });

    it('role lists: 1.1 role names, an empty list, the anchored ext pattern', () => {
      const role = (value: string) => ({ roles: [{ roleType: 'primary', role: value, org: { ...ORG_REF } }] });
      expect(userErrors(role('ext:counsellor-lead.2'))).toEqual([]);
      expect(userErrors(role('administrator'))).toEqual([
        expect.stringMatching(
          /^\/user\/roles\/0\/role: "administrator" matches no alternative \(is not one of "aide", .*; does not match \^ext:/,
        ),
      ]);
      // The OAS pattern is unanchored; anchored, a value merely containing "ext:x" is refused.
      expect(userErrors(role('teacher-ext:x'))).toHaveLength(1);
      expect(userErrors(role('ext:'))).toHaveLength(1);
      expect(userErrors(role('ext:a b'))).toHaveLength(1);
      expect(userErrors({ roles: [] })).toEqual(['/user/roles: must NOT have fewer than 1 items']);
    });

    it('formats are enforced: date-time, date, uri', () => {
      expect(userErrors({ dateLastModified: '2025-08-20 14:03' })).toEqual([
        '/user/dateLastModified: "2025-08-20 14:03" is not a valid date-time',
      ]);
      expect(userErrors({ dateLastModified: '2025-08-20T14:03:11' })).toHaveLength(1);
      expect(userErrors({ primaryOrg: { ...ORG_REF, href: '/orgs/sch-1' } })).toEqual([
        '/user/primaryOrg/href: "/orgs/sch-1" is not a valid uri',
      ]);
      const profile = { profileId: 'not a uri', profileType: 'lms', vendorId: 'v-1' };
      expect(userErrors({ userProfiles: [profile] })).toEqual([
        '/user/userProfiles/0/profileId: "not a uri" is not a valid uri',
      ]);
      const [result] = EXAMPLE_RESULTS.results;
      const withDate = (scoreDate: string) =>
        validateV1p2('gradebook', 'SingleResultDType', { result: { ...result, scoreDate } });
      expect(withDate('2025-09-01T10:00:00.000Z')).toEqual([
        '/result/scoreDate: "2025-09-01T10:00:00.000Z" is not a valid date',
      ]);
      expect(withDate('2025-02-30')).toHaveLength(1);
    });

    it('scores are numbers: a string "300" fails, 300 passes', () => {
      const [result] = EXAMPLE_RESULTS.results;
      expect(validateV1p2('gradebook', 'SingleResultDType', { result: { ...result, score: 300 } })).toEqual([]);
      expect(validateV1p2('gradebook', 'SingleResultDType', { result: { ...result, score: '300' } })).toEqual([
        '/result/score: "300" is not of type number',
      ]);
    });

    it('expectV1p2 fails listing every problem', () => {
      expect(() =>
        expectV1p2('rostering', 'SingleUserDType', userBody({ enabledUser: true, middleName: null })),
      ).toThrow(
        /rostering SingleUserDType:\n {2}- \/user\/enabledUser: true is not of type string\n(.|\n)*- \/user\/middleName: null is not of type string/,
      );
      expect(() => validateV1p2('rostering', 'NoSuchDType', {})).toThrow(
        'no OneRoster 1.2 schema rostering/NoSuchDType',
      );
    });
  });

  describe('bodies trimmed with fields', () => {
    const trimmed = { users: [{ sourcedId: 'u-1', email: 'jdoe@example.org' }, { sourcedId: 'u-2' }] };

    it('fail the full schema but pass with required relaxed on the records', () => {
      expect(validateV1p2('rostering', 'UserSetDType', trimmed)).toContain(
        '/users/0: missing required property "status"',
      );
      expect(validateV1p2('rostering', 'UserSetDType', trimmed, { fields: true })).toEqual([]);
      expect(validateV1p2('rostering', 'UserSetDType', trimmed, { fields: ['sourcedId', 'email'] })).toEqual([]);
      expect(() =>
        expectV1p2('rostering', 'SingleUserDType', { user: { givenName: 'Jane' } }, { fields: ['givenName'] }),
      ).not.toThrow();
    });

    it('still refuse properties outside the selection, unknown keys, bad types and enums', () => {
      const check = (body: unknown) =>
        validateV1p2('rostering', 'UserSetDType', body, {
          fields: ['sourcedId', 'email', 'enabledUser', 'primaryOrg'],
        });
      expect(check({ users: [{ sourcedId: 'u-1', givenName: 'Jane' }] })).toEqual([
        '/users/0: property "givenName" is not allowed (closed object)',
      ]);
      expect(validateV1p2('rostering', 'UserSetDType', { users: [{ nickname: 'J' }] }, { fields: true })).toEqual([
        '/users/0: property "nickname" is not allowed (closed object)',
      ]);
      expect(check({ users: [{ enabledUser: true }] })).toContain('/users/0/enabledUser: true is not of type string');
      expect(check({ users: [{ sourcedId: 'u-1' }], extra: 1 })).toEqual([
        '(root): property "extra" is not allowed (closed object)',
      ]);
    });

    it('keep required inside nested objects and on the wrapper key', () => {
      const { type: _type, ...untyped } = ORG_REF;
      expect(validateV1p2('rostering', 'UserSetDType', { users: [{ primaryOrg: untyped }] }, { fields: true })).toEqual(
        ['/users/0/primaryOrg: missing required property "type"'],
      );
      expect(validateV1p2('rostering', 'SingleUserDType', {}, { fields: ['sourcedId'] })).toEqual([
        '(root): missing required property "user"',
      ]);
      expect(
        validateV1p2('gradebook', 'SingleLineItemDType', { lineItem: { title: 'T' } }, { fields: ['title'] }),
      ).toEqual([]);
    });
  });

  describe('operations', () => {
    const ops = (service: string) => V1P2_OPERATIONS.filter((op) => op.service === service);
    const byId = (operationId: string): V1p2Operation => {
      const found = V1P2_OPERATIONS.find((op) => op.operationId === operationId);
      if (!found) throw new Error(`no operation ${operationId}`);
      return found;
    };
    const scopesOf = (operationId: string) => [...byId(operationId).scopes].sort();

    it('41 rostering, 35 gradebook and 5 resources operations, 81 in all, unique ids', () => {
      expect(ops('rostering')).toHaveLength(41);
      expect(ops('gradebook')).toHaveLength(35);
      expect(ops('resources')).toHaveLength(5);
      expect(V1P2_OPERATIONS).toHaveLength(81);
      expect(new Set(V1P2_OPERATIONS.map((op) => op.operationId)).size).toBe(81);
      expect(new Set(ops('rostering').map((op) => op.method))).toEqual(new Set(['GET']));
      expect(new Set(ops('gradebook').map((op) => op.method))).toEqual(new Set(['GET', 'PUT', 'POST', 'DELETE']));
    });

    it('carry the scopes of reference §8', () => {
      expect(scopesOf('getAllUsers')).toEqual(['roster-core.readonly', 'roster.readonly']);
      expect(scopesOf('getStudentsForClass')).toEqual(['roster.readonly']);
      expect(scopesOf('getDemographics')).toEqual(['roster-demographics.readonly']);
      expect(scopesOf('getCategoriesForClass')).toEqual(['gradebook.readonly']);
      expect(scopesOf('getScoreScale')).toEqual(['gradebook-core.readonly', 'gradebook.readonly']);
      expect(scopesOf('putResult')).toEqual(['gradebook.createput']);
      expect(scopesOf('postResultsForLineItem')).toEqual(['gradebook.createpost']);
      expect(scopesOf('deleteLineItem')).toEqual(['gradebook.delete']);
      expect(scopesOf('putAssessmentLineItem')).toEqual(['assessment.createput']);
      expect(scopesOf('deleteAssessmentResult')).toEqual(['assessment.delete']);
      expect(scopesOf('getResource')).toEqual(['resource-core.readonly', 'resource.readonly']);
      expect(scopesOf('getResourcesForUser')).toEqual(['resource.readonly']);
    });

    it('grant each scope to as many operations as reference §8 counts', () => {
      const counts: Record<string, number> = {};
      for (const op of V1P2_OPERATIONS) for (const scope of op.scopes) counts[scope] = (counts[scope] ?? 0) + 1;
      expect(counts).toEqual({
        'roster-core.readonly': 22,
        'roster.readonly': 39,
        'roster-demographics.readonly': 2,
        'gradebook-core.readonly': 8,
        'gradebook.readonly': 15,
        'gradebook.createput': 4,
        'gradebook.createpost': 4,
        'gradebook.delete': 4,
        'assessment.readonly': 4,
        'assessment.createput': 2,
        'assessment.delete': 2,
        'resource-core.readonly': 2,
        'resource.readonly': 5,
      });
    });

    it('name request bodies, query parameters and schemas that exist', () => {
      expect(byId('postLineItemsForClass')).toMatchObject({
        method: 'POST',
        path: '/classes/{classSourcedId}/lineItems',
        requestSchema: 'LineItemSetDType',
        queryParameters: [],
      });
      expect(byId('putCategory').requestSchema).toBe('SingleCategoryDType');
      expect(byId('getAllClasses').queryParameters).toEqual(['limit', 'offset', 'sort', 'orderBy', 'filter', 'fields']);
      expect(byId('getClass').queryParameters).toEqual(['fields']);
      for (const op of V1P2_OPERATIONS) {
        const named = [op.requestSchema, ...Object.values(op.responses)].filter((n): n is string => n !== null);
        for (const name of named) expect(v1p2SchemaNames(op.service)).toContain(name);
      }
    });

    it('responseSchemaOf answers by template or real path, with default for unlisted errors', () => {
      expect(responseSchemaOf('rostering', 'GET', '/classes/{classSourcedId}/students', 200)).toBe('UserSetDType');
      expect(responseSchemaOf('rostering', 'get', '/schools/sch-1/terms', '200')).toBe('AcademicSessionSetDType');
      expect(responseSchemaOf('rostering', 'GET', '/schools/sch-1', 200)).toBe('SingleOrgDType');
      expect(responseSchemaOf('rostering', 'GET', '/classes/:id/students', 404)).toBe('imsx_StatusInfoDType');
      expect(responseSchemaOf('gradebook', 'POST', '/lineItems/li-7/results', 201)).toBe('GUIDPairSetDType');
      expect(responseSchemaOf('gradebook', 'PUT', '/results/{sourcedId}', 201)).toBeNull();
      expect(responseSchemaOf('gradebook', 'DELETE', '/results/r-1', 204)).toBeNull();
      expect(responseSchemaOf('resources', 'GET', '/users/u-1/resources?limit=5', 200)).toBe('ResourceSetDType');
      expect(() => responseSchemaOf('gradebook', 'PUT', '/results/r-1', 200)).toThrow(
        'putResult (PUT /results/{sourcedId}) lists no 200 response',
      );
      expect(() => findV1p2Operation('rostering', 'PUT', '/users/u-1')).toThrow(
        'no OneRoster 1.2 rostering operation for PUT /users/u-1',
      );
    });
  });
});
