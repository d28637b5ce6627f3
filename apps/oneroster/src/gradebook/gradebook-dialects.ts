/**
 * How each binding answers gradebook writes and relationship reads, as data: the writes service,
 * the HTTP layer and the reads take one of these instead of branching on a version.
 */
import { ApiErrorCode } from '@edu/domain';
import type { ImsxCodeMinorValue, OneRosterVersion } from '@edu/oneroster-query';
import { V1P1_BODIES, V1P2_BODIES, type BodyDialect } from './gradebook-shapes';

export interface GradebookDialect {
  /** What write bodies hold and how strictly they are read. */
  readonly bodies: BodyDialect;
  /** A refused value in a well-formed body: 400 (v1.1) or 422 (v1.2), `invaliddata` either way. */
  readonly fieldError: ApiErrorCode;
  /** codeMinor of the 403 when another app owns the object (v1.2 keeps `unauthorisedrequest` for 401). */
  readonly notOwner: ImsxCodeMinorValue;
  /** A PUT that creates answers the stored object (v1.1) or no body (v1.2: "201, no body"). */
  readonly createdWithBody: boolean;
  /** Relationship reads naming an unknown parent: an empty collection (v1.1) or 404 `unknownobject` (v1.2 OAS). */
  readonly unknownParent: 'empty' | 'notFound';
}

export const DIALECTS: Readonly<Record<OneRosterVersion, GradebookDialect>> = {
  v1p1: {
    bodies: V1P1_BODIES,
    fieldError: ApiErrorCode.ValidationFailed,
    notOwner: 'unauthorisedrequest',
    createdWithBody: true,
    unknownParent: 'empty',
  },
  v1p2: {
    bodies: V1P2_BODIES,
    fieldError: ApiErrorCode.Unprocessable,
    notOwner: 'forbidden',
    createdWithBody: false,
    unknownParent: 'notFound',
  },
};
