import { OneRosterQueryError, type QueryWarning } from '../errors';
import {
  HTTP_STATUS_BY_CODE_MINOR,
  buildStatusInfo,
  failureStatusInfo,
  queryErrorStatusInfoSet,
  statusInfoSet,
  warningStatusInfo,
  warningsStatusInfoSet,
} from './status-info';

const context = { messageRefIdentifier: 'req-8f2c', operationRefIdentifier: 'getAllUsers' };

describe('imsx status info', () => {
  it('builds the error envelope for a query error, naming the parameter', () => {
    const error = OneRosterQueryError.invalidData('limit', "'limit' must be between 1 and 1000, got '1001'");
    expect(queryErrorStatusInfoSet(error, context)).toEqual({
      statusInfoSet: [
        {
          imsx_codeMajor: 'failure',
          imsx_severity: 'error',
          imsx_messageRefIdentifier: 'req-8f2c',
          imsx_operationRefIdentifier: 'getAllUsers',
          imsx_description: "'limit' must be between 1 and 1000, got '1001'",
          imsx_CodeMinor: {
            imsx_codeMinorField: [{ imsx_codeMinorFieldName: 'limit', imsx_codeMinorFieldValue: 'invaliddata' }],
          },
        },
      ],
    });
    expect(HTTP_STATUS_BY_CODE_MINOR[error.code]).toBe(error.httpStatus);
  });

  it('builds the error envelope for a filter error', () => {
    const set = queryErrorStatusInfoSet(OneRosterQueryError.filter('Unknown filter field'), {
      messageRefIdentifier: 'r1',
    });
    expect(set.statusInfoSet[0]).toEqual({
      imsx_codeMajor: 'failure',
      imsx_severity: 'error',
      imsx_messageRefIdentifier: 'r1',
      imsx_description: 'Unknown filter field',
      imsx_CodeMinor: {
        imsx_codeMinorField: [{ imsx_codeMinorFieldName: 'filter', imsx_codeMinorFieldValue: 'invalid_filter_field' }],
      },
    });
    expect(set.statusInfoSet[0]).not.toHaveProperty('imsx_operationRefIdentifier');
  });

  it('builds success/warning entries for query warnings', () => {
    const warning: QueryWarning = {
      code: 'invalid_sort_field',
      parameter: 'sort',
      message: "Unknown sort field 'nickname'",
      problem: "Unknown sort field 'nickname'",
      values: ['nickname'],
    };
    expect(warningStatusInfo(warning, context)).toEqual({
      imsx_codeMajor: 'success',
      imsx_severity: 'warning',
      imsx_messageRefIdentifier: 'req-8f2c',
      imsx_operationRefIdentifier: 'getAllUsers',
      imsx_description: "Unknown sort field 'nickname'",
      imsx_CodeMinor: {
        imsx_codeMinorField: [{ imsx_codeMinorFieldName: 'sort', imsx_codeMinorFieldValue: 'invalid_sort_field' }],
      },
    });
  });

  it('puts one entry per warning in the set, or nothing at all', () => {
    const warnings: QueryWarning[] = [
      { code: 'invalid_sort_field', parameter: 'data_field', message: 'a', problem: 'a', values: ['x'] },
      { code: 'invalid_selection_field', parameter: 'fields', message: 'b', problem: 'b', values: ['y'] },
    ];
    const set = warningsStatusInfoSet(warnings, context);
    expect(set?.statusInfoSet.map((s) => s.imsx_CodeMinor.imsx_codeMinorField[0]?.imsx_codeMinorFieldValue)).toEqual([
      'invalid_sort_field',
      'invalid_selection_field',
    ]);
    expect(warningsStatusInfoSet([], context)).toBeUndefined();
  });

  it('builds other failures with TargetEndSystem by default', () => {
    expect(
      failureStatusInfo('unknownobject', "No class with sourcedId 'cls-404'", {
        messageRefIdentifier: 'x',
        operationRefIdentifier: 'getClass',
      }),
    ).toEqual({
      imsx_codeMajor: 'failure',
      imsx_severity: 'error',
      imsx_messageRefIdentifier: 'x',
      imsx_operationRefIdentifier: 'getClass',
      imsx_description: "No class with sourcedId 'cls-404'",
      imsx_CodeMinor: {
        imsx_codeMinorField: [
          { imsx_codeMinorFieldName: 'TargetEndSystem', imsx_codeMinorFieldValue: 'unknownobject' },
        ],
      },
    });
  });

  it('builds arbitrary entries and sets', () => {
    const info = buildStatusInfo({
      codeMajor: 'success',
      severity: 'status',
      codeMinor: 'fullsuccess',
      description: 'ok',
      messageRefIdentifier: 'm',
    });
    expect(statusInfoSet(info, info).statusInfoSet).toHaveLength(2);
  });

  it('maps codes to HTTP statuses per reference §8.1', () => {
    expect(HTTP_STATUS_BY_CODE_MINOR).toMatchObject({
      fullsuccess: 200,
      invalid_sort_field: 200,
      invalid_selection_field: 200,
      invalid_filter_field: 400,
      invaliddata: 400,
      unauthorisedrequest: 401,
      forbidden: 403,
      unknownobject: 404,
      server_busy: 429,
      internal_server_error: 500,
    });
  });
});
