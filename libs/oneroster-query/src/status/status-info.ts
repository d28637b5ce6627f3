/**
 * imsx status payloads of the OneRoster v1.1 binding (reference §8), in the `statusInfoSet`
 * envelope: errors (sent alone, with a 4xx/5xx) and warnings (sent beside the data, with 200).
 */
import type { OneRosterQueryError, QueryWarning } from '../errors';

export type ImsxCodeMajor = 'success' | 'processing' | 'failure' | 'unsupported';
export type ImsxSeverity = 'status' | 'warning' | 'error';
/** The codeMinor values this service emits (left column of reference §8.1). */
export type ImsxCodeMinorValue =
  | 'fullsuccess'
  | 'invalid_sort_field'
  | 'invalid_selection_field'
  | 'invalid_filter_field'
  | 'invaliddata'
  | 'unauthorisedrequest'
  | 'forbidden'
  | 'unknownobject'
  | 'server_busy'
  | 'internal_server_error'
  | 'unsupportedoperation';

export interface ImsxCodeMinorField {
  readonly imsx_codeMinorFieldName: string;
  readonly imsx_codeMinorFieldValue: ImsxCodeMinorValue;
}

export interface ImsxStatusInfo {
  readonly imsx_codeMajor: ImsxCodeMajor;
  readonly imsx_severity: ImsxSeverity;
  readonly imsx_messageRefIdentifier: string;
  readonly imsx_operationRefIdentifier?: string;
  readonly imsx_description: string;
  readonly imsx_CodeMinor: { readonly imsx_codeMinorField: readonly ImsxCodeMinorField[] };
}

export interface ImsxStatusInfoSet {
  readonly statusInfoSet: readonly ImsxStatusInfo[];
}

/** Identifies the request a status belongs to. */
export interface StatusContext {
  /** Request / correlation id. */
  readonly messageRefIdentifier: string;
  /** Operation name, e.g. `getAllUsers`. */
  readonly operationRefIdentifier?: string;
}

/** IMS convention for a codeMinor field name that is not about one parameter. */
export const TARGET_END_SYSTEM = 'TargetEndSystem';

/** HTTP status for each codeMinor (reference §8.1); 405 for unsupported operations. */
export const HTTP_STATUS_BY_CODE_MINOR: Readonly<Record<ImsxCodeMinorValue, number>> = {
  fullsuccess: 200,
  invalid_sort_field: 200,
  invalid_selection_field: 200,
  invalid_filter_field: 400,
  invaliddata: 400,
  unauthorisedrequest: 401,
  forbidden: 403,
  unknownobject: 404,
  unsupportedoperation: 405,
  server_busy: 429,
  internal_server_error: 500,
};

export interface StatusInfoInput extends StatusContext {
  readonly codeMajor: ImsxCodeMajor;
  readonly severity: ImsxSeverity;
  readonly codeMinor: ImsxCodeMinorValue;
  readonly description: string;
  /** Defaults to `TargetEndSystem`; use the offending parameter's name when there is one. */
  readonly fieldName?: string;
}

export function buildStatusInfo(input: StatusInfoInput): ImsxStatusInfo {
  return {
    imsx_codeMajor: input.codeMajor,
    imsx_severity: input.severity,
    imsx_messageRefIdentifier: input.messageRefIdentifier,
    ...(input.operationRefIdentifier ? { imsx_operationRefIdentifier: input.operationRefIdentifier } : {}),
    imsx_description: input.description,
    imsx_CodeMinor: {
      imsx_codeMinorField: [
        { imsx_codeMinorFieldName: input.fieldName ?? TARGET_END_SYSTEM, imsx_codeMinorFieldValue: input.codeMinor },
      ],
    },
  };
}

/** `{ statusInfoSet: [...] }` */
export function statusInfoSet(...infos: ImsxStatusInfo[]): ImsxStatusInfoSet {
  return { statusInfoSet: infos };
}

/** A failure/error entry, e.g. `failureStatusInfo('unknownobject', "No class with sourcedId 'x'", ctx)`. */
export function failureStatusInfo(
  codeMinor: ImsxCodeMinorValue,
  description: string,
  context: StatusContext,
  fieldName?: string,
): ImsxStatusInfo {
  return buildStatusInfo({
    ...context,
    codeMajor: 'failure',
    severity: 'error',
    codeMinor,
    description,
    ...(fieldName ? { fieldName } : {}),
  });
}

/** The error body for a rejected query (HTTP `error.httpStatus`, i.e. 400). */
export function queryErrorStatusInfoSet(error: OneRosterQueryError, context: StatusContext): ImsxStatusInfoSet {
  return statusInfoSet(failureStatusInfo(error.code, error.message, context, error.parameter));
}

/** A success/warning entry for a tolerated query problem. */
export function warningStatusInfo(warning: QueryWarning, context: StatusContext): ImsxStatusInfo {
  return buildStatusInfo({
    ...context,
    codeMajor: 'success',
    severity: 'warning',
    codeMinor: warning.code,
    description: warning.message,
    fieldName: warning.parameter,
  });
}

/** Warning entries to put beside the data; undefined when there is nothing to report (omit the key). */
export function warningsStatusInfoSet(
  warnings: readonly QueryWarning[],
  context: StatusContext,
): ImsxStatusInfoSet | undefined {
  return warnings.length === 0 ? undefined : statusInfoSet(...warnings.map((w) => warningStatusInfo(w, context)));
}

/**
 * The v1.2 error body (reference oneroster-v1p2 §7.2): one bare `imsx_StatusInfo` object, closed
 * (no `statusInfoSet` around it, no message or operation reference).
 */
export interface ImsxStatusInfoV1p2 {
  readonly imsx_codeMajor: ImsxCodeMajor;
  readonly imsx_severity: ImsxSeverity;
  readonly imsx_description: string;
  readonly imsx_CodeMinor?: { readonly imsx_codeMinorField: readonly ImsxCodeMinorField[] };
}

/**
 * A v1.2 failure. `unsupportedoperation` is not a v1.2 codeMinor: a method the path does not take
 * is reported with codeMajor `unsupported` and no codeMinor.
 */
export function v1p2FailureStatusInfo(
  codeMinor: ImsxCodeMinorValue,
  description: string,
  fieldName?: string,
): ImsxStatusInfoV1p2 {
  if (codeMinor === 'unsupportedoperation')
    return { imsx_codeMajor: 'unsupported', imsx_severity: 'error', imsx_description: description };
  return {
    imsx_codeMajor: 'failure',
    imsx_severity: 'error',
    imsx_description: description,
    imsx_CodeMinor: {
      imsx_codeMinorField: [
        { imsx_codeMinorFieldName: fieldName ?? TARGET_END_SYSTEM, imsx_codeMinorFieldValue: codeMinor },
      ],
    },
  };
}
