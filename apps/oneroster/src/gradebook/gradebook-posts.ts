/**
 * The four bulk creations of v1.2 (reference v1.2 §5.2, §9.2) as data: the class they create,
 * the parents their path names (404 when unknown) and the fields every record must share with
 * the path (filled in when a record leaves them out; a record naming another → 422).
 */
import { SINGLES, type SingleOperation } from '../roster/roster-operations';
import { GRADEBOOK_SINGLES } from './gradebook-operations';

export interface BulkPost {
  readonly name: string;
  readonly kind: 'lineItem' | 'result';
  /** Path parameter → the read that must find its object (404 otherwise): a class, a visible school, a session, a live line item. */
  readonly parents: Readonly<Record<string, SingleOperation>>;
  /** Record field → the path parameter it must equal. */
  readonly forced: Readonly<Record<string, string>>;
  /**
   * `postResultsForAcademicSessionForClass`: each result's line item belongs to the class and has
   * the session as its `academicSession` or `gradingPeriod`.
   */
  readonly inSession?: { readonly classParam: string; readonly sessionParam: string };
}

export const BULK_POSTS = {
  postLineItemsForClass: {
    name: 'postLineItemsForClass',
    kind: 'lineItem',
    parents: { class_id: SINGLES.getClass },
    forced: { class: 'class_id' },
  },
  postLineItemsForSchool: {
    name: 'postLineItemsForSchool',
    kind: 'lineItem',
    parents: { school_id: SINGLES.getSchool },
    forced: { school: 'school_id' },
  },
  postResultsForLineItem: {
    name: 'postResultsForLineItem',
    kind: 'result',
    parents: { li_id: GRADEBOOK_SINGLES.getLineItem },
    forced: { lineItem: 'li_id' },
  },
  postResultsForAcademicSessionForClass: {
    name: 'postResultsForAcademicSessionForClass',
    kind: 'result',
    parents: { class_id: SINGLES.getClass, session_id: SINGLES.getAcademicSession },
    forced: { class: 'class_id' },
    inSession: { classParam: 'class_id', sessionParam: 'session_id' },
  },
} as const satisfies Record<string, BulkPost>;
