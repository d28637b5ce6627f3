/** The OpenAPI description of the roster change feed (merged into the OneRoster document). */
import { addResponse, jsonResponse, type DocumentedOperation, type SchemaObject } from '@edu/http';
import { FEED_OBJECT_NAMES } from './feed-objects';
import { MAX_EVENTS_PER_PAGE } from './events.service';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const EVENT_SCHEMAS: Record<string, SchemaObject> = {
  RosterEvent: {
    type: 'object',
    required: ['id', 'cursor', 'created_at', 'type', 'object', 'sourcedId', 'data', 'previous'],
    properties: {
      id: { type: 'string', description: 'Unique and increasing in feed order' },
      cursor: { type: 'string', description: 'Continue after this event with `after=<cursor>`' },
      created_at: { type: 'string', format: 'date-time' },
      type: { type: 'string', description: '`<object>.created`, `<object>.updated` or `<object>.deleted`' },
      object: { type: 'string', enum: [...FEED_OBJECT_NAMES] },
      sourcedId: { type: 'string' },
      data: {
        type: 'object',
        nullable: true,
        description: 'The object as OneRoster 1.2 shows it to this deployment now; null for deletes',
      },
      previous: {
        type: 'object',
        nullable: true,
        description: 'Updates: the former values of the fields the change changed (1.2 names)',
      },
    },
  },
  RosterEventPage: {
    type: 'object',
    required: ['events', 'next_cursor', 'has_more'],
    properties: {
      events: { type: 'array', items: ref('RosterEvent') },
      next_cursor: { type: 'string', description: 'Continue with `after=<next_cursor>`; never expires' },
      has_more: { type: 'boolean' },
    },
    additionalProperties: false,
  },
};

const QUERY = [
  {
    name: 'after',
    in: 'query' as const,
    required: false,
    description: 'A cursor of this feed, or `beginning`; absent: from now (nothing, and the cursor of now)',
    schema: { type: 'string' },
  },
  {
    name: 'limit',
    in: 'query' as const,
    required: false,
    description: `Events scanned at most (default 100)`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_EVENTS_PER_PAGE },
  },
  {
    name: 'objects',
    in: 'query' as const,
    required: false,
    description: `Comma-separated collections (${FEED_OBJECT_NAMES.join(', ')}); default: all the deployment's scopes open`,
    schema: { type: 'string' },
  },
];

/** Documents the feed's route; false for any other. */
export function describeEventRoute(op: DocumentedOperation): boolean {
  if (op.handler !== 'RosterEventsController.list') return false;
  op.operation.operationId = 'getRosterEvents';
  op.operation.summary = "A page of the deployment's roster change feed, in commit order";
  op.operation.tags = ['roster-events'];
  op.operation.parameters = QUERY;
  const responses = (op.operation.responses ??= {});
  for (const status of Object.keys(responses)) if (/^2/.test(status)) delete responses[status];
  responses['200'] = jsonResponse('Events and the cursor to continue from', ref('RosterEventPage'));
  for (const status of [400, 401, 403, 503])
    addResponse(op, status, jsonResponse(`Error (${status})`, ref('StatusInfoSet')));
  return true;
}
