import { defineEvent, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

// Custom views are workspace configuration (saved filters), not personal data:
// nothing here is sealed. A private view is its member's own, though: its
// events stay in the log (the views read model is folded from them) but are
// left out of the change feed and webhooks (`privateViewEvent`), so another
// member cannot read its name and query there. Each event says whether it is
// about a private view: view.created by its visibility, the others by `private`.

const Query = () =>
  Type.Record(Type.String(), Type.Unknown(), { description: 'The filter, in the conversations filter language (see POST /api/conversations/search).' });
const Sort = () => Type.Union([Type.Literal('created_at'), Type.Literal('updated_at')]);
const Order = () => Type.Union([Type.Literal('asc'), Type.Literal('desc')]);
const Visibility = () => Type.Union([Type.Literal('private'), Type.Literal('workspace')]);

export const ViewCreated = defineEvent({
  type: 'view.created',
  aggregate_type: 'view',
  description:
    "A custom view (a saved conversations filter) was created. A `private` view belongs to `member_id` alone, and its creation is never in the change feed or at webhooks; a `workspace` view is everyone's.",
  payload: payload({ id: Uuid(), name: Text(), query: Query(), sort: Sort(), order: Order(), visibility: Visibility(), member_id: Uuid() }),
});

export const ViewUpdated = defineEvent({
  type: 'view.updated',
  aggregate_type: 'view',
  description:
    'A custom view changed; only the changed fields are in the payload (`query` whole). A workspace view made private becomes the private view of `member_id`, the member who changed it: that change comes alone, other changes made with it follow as a private event. A private view made a workspace view carries all its fields. Events of a private view (`private: true`) are never in the change feed or at webhooks.',
  payload: payload({
    id: Uuid(),
    private: Type.Optional(
      Type.Boolean({
        description: 'The event is about a private view only: it is left out of the change feed and webhooks. Absent on events appended before it existed.',
      }),
    ),
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
  description: 'A custom view was deleted. The deletion of a private view (`private: true`) is never in the change feed or at webhooks.',
  payload: payload({
    id: Uuid(),
    private: Type.Optional(Type.Boolean({ description: 'A private view was deleted. Absent on events appended before it existed.' })),
  }),
});

export const viewEvents = [ViewCreated, ViewUpdated, ViewDeleted] as const;
export type ViewEvent = EventOf<(typeof viewEvents)[number]>;
