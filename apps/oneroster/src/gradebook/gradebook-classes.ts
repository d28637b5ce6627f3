/**
 * The six gradebook classes that clients write (v1.1: the first three; v1.2 all six) and what
 * every write needs to know about each: its table, its name in messages, and the objects that
 * belong to it (a line item's results), which share-lock it while written and go with it when it
 * is deleted.
 */
import { RESOURCE_KEYS } from '@edu/oneroster-query';

export const GRADEBOOK_CLASSES = [
  'category',
  'lineItem',
  'result',
  'scoreScale',
  'assessmentLineItem',
  'assessmentResult',
] as const;
export type GradebookClass = (typeof GRADEBOOK_CLASSES)[number];

/** Objects of another class that name this one and live and die with it. */
export interface Dependents {
  readonly table: string;
  /** Their column holding this object's sourcedId. */
  readonly column: string;
}

export interface GradebookClassInfo {
  readonly table: string;
  /** In messages: "No line item with sourcedId …". */
  readonly noun: string;
  readonly dependents?: Dependents;
}

export const GRADEBOOK: Readonly<Record<GradebookClass, GradebookClassInfo>> = {
  category: { table: 'gradebook_categories', noun: 'category' },
  lineItem: {
    table: 'gradebook_line_items',
    noun: 'line item',
    dependents: { table: 'gradebook_results', column: 'line_item_sourced_id' },
  },
  result: { table: 'gradebook_results', noun: 'result' },
  scoreScale: { table: 'gradebook_score_scales', noun: 'score scale' },
  assessmentLineItem: {
    table: 'gradebook_assessment_line_items',
    noun: 'assessment line item',
    dependents: { table: 'gradebook_assessment_results', column: 'assessment_line_item_sourced_id' },
  },
  assessmentResult: { table: 'gradebook_assessment_results', noun: 'assessment result' },
};

/** Path segment of the class's collection (`lineItems`), also its Set wrapper key. */
export function collectionOf(kind: GradebookClass): string {
  return RESOURCE_KEYS[kind].collection;
}

/** Single wrapper key (`lineItem`). */
export function singleKeyOf(kind: GradebookClass): string {
  return RESOURCE_KEYS[kind].single;
}
