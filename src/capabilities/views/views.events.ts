import { defineEvent, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

// Custom views are workspace configuration (saved filters), not personal data:
// nothing here is sealed.

const Query = () =>
  Type.Record(Type.String(), Type.Unknown(), { description: 'The filter, in the conversations filter language (see POST /api/conversations/search).' });
const Sort = () => Type.Union([Type.Literal('created_at'), Type.Literal('updated_at')]);
const Order = () => Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
const Visibility = () => Type.Union([Type.Literal('private'), Type.Literal('workspace')]);

export const ViewCreated = defineEvent({
  type: 'view.created',
  aggregate_type: 'view',
  description: "A custom view (a saved conversations filter) was created. A `private` view belongs to `member_id` alone; a `workspace` view is everyone's.",
  payload: payload({ id: Uuid(), name: Text(), query: Query(), sort: Sort(), order: Order(), visibility: Visibility(), member_id: Uuid() }),
});

export const ViewUpdated = defineEvent({
  type: 'view.updated',
  aggregate_type: 'view',
  description:
    'A custom view changed; only the changed fields are in the payload (`query` whole). A workspace view made private becomes the private view of `member_id`, the member who changed it.',
  payload: payload({
    id: Uuid(),
    name: Type.Optional(Text()),
    query: Type.Optional(Query()),
    sort: Type.Optional(Sort()),
    order: Type.Optional(Order()),
    visibility: Type.Optional(Visibility()),
    member_id: Type.Optional(Uuid()),
  }),
});

export const ViewDeleted = defineEvent({
  type: 'view.deleted',
  aggregate_type: 'view',
  description: 'A custom view was deleted.',
  payload: payload({ id: Uuid() }),
});

export const viewEvents = [ViewCreated, ViewUpdated, ViewDeleted] as const;
export type ViewEvent = EventOf<(typeof viewEvents)[number]>;
