// GET /api/events: the change feed. Elements are the spec 2.4 envelopes in
// ascending seq, each with the event's `id` beside them (every list element
// carries `type` and `id`; here `type` is the event type).
import { anyEventSchema, eventSchemaDocuments } from '../../eventstore/event-schemas.js';
import { anyObject, arrayOf, constant, object, str, type Static } from '../../api/schemas.js';
import type { ListSpec } from '../../api/pagination/list.js';
import { listRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import { BadRequest } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { feedTable, renderFeedEvent, type FeedRow } from './feed.read.js';
import { eventStreamRoute, feedRows } from './feed.stream.js';

const feedList: ListSpec = { itemType: 'event', sorts: { seq: { column: 'seq', kind: 'number' } }, defaultSort: 'seq', defaultOrder: 'asc' };

const eventSchemasSchema = object(
  {
    type: constant('list'),
    data: arrayOf(
      object(
        {
          type: constant('event_schema'),
          id: str({ description: 'The event type.' }),
          aggregate_type: str(),
          description: str(),
          schema: anyObject({
            description: "A JSON Schema (2020-12) of the envelope as a webhook receiver gets it; the change feed adds the event's `id`.",
          }),
        },
        { title: 'EventSchema' },
      ),
    ),
  },
  { title: 'EventSchemaList' },
);

export function feedRoutes(deps: CoreDeps): RouteDef[] {
  const { db, catalogue } = deps;
  const schemas: Static<typeof eventSchemasSchema> = { type: 'list', data: eventSchemaDocuments(catalogue) };
  return [
    route({
      method: 'get',
      path: '/events/schemas',
      permission: 'events:read',
      summary: 'JSON Schemas of the events, one per event type (the envelopes webhooks deliver)',
      responses: { 200: eventSchemasSchema },
      async handle() {
        return { status: 200, body: schemas };
      },
    }),

    listRoute<FeedRow, { after_seq?: number; types?: string }>({
      path: '/events',
      permission: 'events:read',
      summary: "The change feed: the workspace's events in seq order",
      item: anyEventSchema(catalogue, { withId: true, title: 'FeedEvent', variantSuffix: 'FeedEvent' }),
      spec: feedList,
      filters: {
        // seq is a bigint, but a JS number is exact only up to 2^53 - 1
        after_seq: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        // comma-separated event types from the catalogue, e.g. conversation_part.created,conversation.created
        types: { type: 'string', pattern: '^[a-z_]+\\.[a-z_]+(,[a-z_]+\\.[a-z_]+)*$', maxLength: 2000 },
      },
      // The feed walks seq forward only: an auditor reads 1..head, a receiver fills a gap.
      schema: (s) => {
        (s.properties as Record<string, { enum?: string[] }>).order!.enum = ['asc'];
        return s;
      },
      before: async ({ query }) => {
        const unknown = (query.types ?? '').split(',').filter((t) => t && !catalogue.has(t));
        if (unknown.length)
          throw new BadRequest('unknown_event_type', `types names events the service never emits: ${unknown.join(', ')}. See docs/events.md.`, 'types');
      },
      // A private view is its member's own: its name and query are no one else's to read here (views.read.ts).
      query: ({ principal, query }) => feedRows(db, feedTable(deps.store.kind), principal.tenantId, query.after_seq ?? 0, query.types?.split(',') ?? []),
      render: renderFeedEvent,
      // Payloads are as the log keeps them, personal fields sealed: open them (null once erased).
      finish: ({ principal }, page) => deps.forgettable.reveal(db, principal.tenantId, page),
    }),

    eventStreamRoute(deps),
  ];
}
