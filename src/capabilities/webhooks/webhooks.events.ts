import { defineEvent, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

export const WebhookEndpointCreated = defineEvent({
  type: 'webhook_endpoint.created',
  aggregate_type: 'webhook_endpoint',
  description: 'A webhook endpoint was registered. It receives events appended after this one. Its signing secret is sealed beside the log, never in it.',
  payload: payload({ endpoint_id: Uuid(), url: Text(), event_names: Type.Array(Text()), description: Text(), enabled: Type.Boolean() }),
});

export const WebhookEndpointUpdated = defineEvent({
  type: 'webhook_endpoint.updated',
  aggregate_type: 'webhook_endpoint',
  description: "An endpoint's url, filter, description or enabled flag changed; only the changed fields are in the payload.",
  payload: payload({
    endpoint_id: Uuid(),
    url: Type.Optional(Text()),
    event_names: Type.Optional(Type.Array(Text())),
    description: Type.Optional(Text()),
    enabled: Type.Optional(Type.Boolean()),
  }),
});

export const WebhookEndpointDeleted = defineEvent({
  type: 'webhook_endpoint.deleted',
  aggregate_type: 'webhook_endpoint',
  description: 'An endpoint was removed with its secret and delivery history.',
  payload: payload({ endpoint_id: Uuid() }),
});

export const webhookEvents = [WebhookEndpointCreated, WebhookEndpointUpdated, WebhookEndpointDeleted] as const;
export type WebhookEvent = EventOf<(typeof webhookEvents)[number]>;
