/**
 * Every gradebook read as data (reference §6.3): which class it returns and its base set of rows,
 * over the table aliased `t` with `$1` = tenant id. Filters, sorting and paging come on top
 * (`RosterService`), exactly as for the rostering reads.
 *
 * Rules chosen where the standard is silent (recorded in the app README):
 * - A deleted (`tobedeleted`) gradebook object reads as 404 on single GETs; collections keep it,
 *   with its status, so delta readers (`filter=dateLastModified>'…'`) learn of the deletion.
 * - Results "of a class" are the results of the class's line items.
 * - `classes/{id}/categories` = the categories a line item of that class may use: every active
 *   category of the tenant (categories have no class in v1.1), and none unless the class is an
 *   active class of the tenant.
 * - Unknown parents answer an empty collection in v1.1, as the rostering relationship reads do;
 *   404 in v1.2 (`parents`, checked by the read path when the page is empty): the class (any
 *   status), the line item (any status: delta readers still see its results' tombstones), the
 *   user, the school (of the visible org tree).
 * - v1.2 only: a class's score scales are those naming it; a school's, those stored with it
 *   (written ones: their class's school), and none unless it is a school of the tenant's visible
 *   org tree.
 */
import {
  ALL,
  EMPTY,
  isVisibleSchool,
  pathId,
  SINGLES,
  text,
  type BaseSet,
  type BaseSetInput,
  type CollectionOperation,
  type SingleOperation,
} from '../roster/roster-operations';

/** Live objects only: a deleted gradebook object is gone for single reads. */
const LIVE: BaseSet = { conditions: [`t.status = 'active'`] };

/**
 * The results of the class's line items (any status): each result keeps its line item's class
 * (`class_sourced_id`, maintained by the database), indexed with the sourcedId, so a page of the
 * class's results in default order is a range of that index.
 */
function ofClass(input: BaseSetInput): string {
  return `t.class_sourced_id = ${text(input, pathId(input, 'class_id'))}`;
}

/** Parents of the relationship reads (v1.2: 404 when unknown). A line item parent may be deleted. */
const ANY_LINE_ITEM: SingleOperation = {
  name: 'getLineItem',
  resource: 'lineItem',
  noun: 'line item',
  base: () => ALL,
};
const OF_CLASS = { class_id: SINGLES.getClass };

export const GRADEBOOK_COLLECTIONS = {
  getAllCategories: { name: 'getAllCategories', resource: 'category', base: () => ALL },
  getAllLineItems: { name: 'getAllLineItems', resource: 'lineItem', base: () => ALL },
  getAllResults: { name: 'getAllResults', resource: 'result', base: () => ALL },
  getLineItemsForClass: {
    name: 'getLineItemsForClass',
    parents: OF_CLASS,
    resource: 'lineItem',
    base: (i) => ({ conditions: [`t.class_sourced_id = ${text(i, pathId(i, 'class_id'))}`] }),
  },
  getResultsForClass: {
    name: 'getResultsForClass',
    parents: OF_CLASS,
    resource: 'result',
    base: (i) => ({ conditions: [ofClass(i)] }),
  },
  getResultsForLineItemForClass: {
    name: 'getResultsForLineItemForClass',
    parents: { ...OF_CLASS, li_id: ANY_LINE_ITEM },
    resource: 'result',
    base: (i) => {
      const lineItem = text(i, pathId(i, 'li_id'));
      return {
        conditions: [
          `t.line_item_sourced_id = ${lineItem}`,
          `EXISTS (SELECT 1 FROM gradebook_line_items AS li WHERE li.tenant_id = $1::uuid AND li.sourced_id = ${lineItem} AND li.class_sourced_id = ${text(i, pathId(i, 'class_id'))})`,
        ],
      };
    },
  },
  getResultsForStudentForClass: {
    name: 'getResultsForStudentForClass',
    parents: { ...OF_CLASS, student_id: SINGLES.getUser },
    resource: 'result',
    base: (i) => ({ conditions: [`t.student_sourced_id = ${text(i, pathId(i, 'student_id'))}`, ofClass(i)] }),
  },
  getCategoriesForClass: {
    name: 'getCategoriesForClass',
    parents: OF_CLASS,
    resource: 'category',
    base: (i) => ({
      conditions: [
        `t.status = 'active'`,
        `EXISTS (SELECT 1 FROM roster_classes AS k WHERE k.tenant_id = $1::uuid AND k.sourced_id = ${text(i, pathId(i, 'class_id'))} AND k.status = 'active')`,
      ],
    }),
  },
} as const satisfies Record<string, CollectionOperation>;

export const GRADEBOOK_SINGLES = {
  getCategory: { name: 'getCategory', resource: 'category', noun: 'category', base: () => LIVE },
  getLineItem: { name: 'getLineItem', resource: 'lineItem', noun: 'line item', base: () => LIVE },
  getResult: { name: 'getResult', resource: 'result', noun: 'result', base: () => LIVE },
} as const satisfies Record<string, SingleOperation>;

/** The reads only v1.2 has (reference v1.2 §9.2): score scales and assessments. */
export const GRADEBOOK_V1P2_COLLECTIONS = {
  getAllScoreScales: { name: 'getAllScoreScales', resource: 'scoreScale', base: () => ALL },
  getScoreScalesForClass: {
    name: 'getScoreScalesForClass',
    parents: OF_CLASS,
    resource: 'scoreScale',
    base: (i) => ({ conditions: [`t.class_sourced_id = ${text(i, pathId(i, 'class_id'))}`] }),
  },
  getScoreScalesForSchool: {
    name: 'getScoreScalesForSchool',
    parents: { school_id: SINGLES.getSchool },
    resource: 'scoreScale',
    base: (i) => {
      const id = pathId(i, 'school_id');
      return isVisibleSchool(i, id) ? { conditions: [`t.org_sourced_id = ${text(i, id)}`] } : EMPTY;
    },
  },
  getAllAssessmentLineItems: { name: 'getAllAssessmentLineItems', resource: 'assessmentLineItem', base: () => ALL },
  getAllAssessmentResults: { name: 'getAllAssessmentResults', resource: 'assessmentResult', base: () => ALL },
} as const satisfies Record<string, CollectionOperation>;

export const GRADEBOOK_V1P2_SINGLES = {
  getScoreScale: { name: 'getScoreScale', resource: 'scoreScale', noun: 'score scale', base: () => LIVE },
  getAssessmentLineItem: {
    name: 'getAssessmentLineItem',
    resource: 'assessmentLineItem',
    noun: 'assessment line item',
    base: () => LIVE,
  },
  getAssessmentResult: {
    name: 'getAssessmentResult',
    resource: 'assessmentResult',
    noun: 'assessment result',
    base: () => LIVE,
  },
} as const satisfies Record<string, SingleOperation>;
