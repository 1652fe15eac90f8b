// The AsyncAPI 3 document of what the service sends: webhook deliveries to
// endpoints and teammates' replies (and their retractions) to api channels.
// Generated from the event catalogue (one message per event type, its envelope
// as the payload), the routing rules' list of what channels get, the sender's
// headers and the retry policy, so none of it can drift from what the
// dispatcher does. `npm run docs:asyncapi` writes docs/asyncapi.json; a
// test regenerates it and fails on any difference.
import type { EventCatalogue } from '../eventstore/catalogue.js';
import { envelopeSchema, eventTitle } from '../eventstore/event-schemas.js';
import { MAX_ATTEMPTS, retryWindowSeconds } from './retry-policy.js';
import type { RoutingRules } from './routing.js';
import { SIGNATURE_HEADER } from './sender.js';

/** The waits between attempts: base, doubled after each failure (retry-policy.ts). */
export function retryDelaysSeconds(baseSeconds: number): number[] {
  return Array.from({ length: MAX_ATTEMPTS - 1 }, (_, n) => baseSeconds * 2 ** n);
}

export function buildAsyncApi(
  catalogue: EventCatalogue,
  o: { version: string; retryBaseSeconds: number; rules: Pick<RoutingRules, 'channelEvents'> },
): Record<string, unknown> {
  const delays = retryDelaysSeconds(o.retryBaseSeconds);
  const window = retryWindowSeconds(o.retryBaseSeconds);
  const retryPolicy = {
    attempts: MAX_ATTEMPTS,
    first_delay_seconds: o.retryBaseSeconds,
    factor: 2,
    delays_seconds: delays,
    last_attempt_after_seconds: window,
    success: 'any 2xx answer; anything else (3xx, 4xx, 5xx, timeout, refused or reset connection) is a failed attempt',
    after_last_failure: 'the delivery is dead; POST /api/webhooks/{id}/deliveries/{delivery_id}/retry republishes it',
  };
  const retryText =
    `A failed attempt is retried: ${MAX_ATTEMPTS} attempts in all, the first wait ${o.retryBaseSeconds} s, doubling after each failure ` +
    `(${delays.join(', ')} s), so the last attempt comes ${window} s after the first. After the ${MAX_ATTEMPTS}th failure the delivery is dead. ` +
    'Answer any 2xx quickly (redirects are not followed). Delivery is at least once: deduplicate on (tenant_id, seq).';

  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {
    DeliveryHeaders: {
      type: 'object',
      required: ['content-type', SIGNATURE_HEADER],
      properties: {
        'content-type': { type: 'string', const: 'application/json' },
        [SIGNATURE_HEADER]: {
          type: 'string',
          pattern: '^[0-9a-f]{64}$',
          description:
            "Hex HMAC-SHA256 of the raw request body (the exact bytes, before any JSON parsing), keyed with the endpoint's secret (whsec_…) or the channel's webhook_secret. Compare in constant time.",
        },
        'user-agent': { type: 'string', const: 'conversation-service-webhooks/1' },
      },
    },
  };
  for (const def of catalogue.all()) {
    const name = eventTitle(def.type);
    schemas[`${name}Envelope`] = envelopeSchema(def);
    messages[def.type] = {
      name: def.type,
      title: def.type,
      summary: def.description,
      contentType: 'application/json',
      headers: { $ref: '#/components/schemas/DeliveryHeaders' },
      payload: { $ref: `#/components/schemas/${name}Envelope` },
      bindings: { http: { headers: { $ref: '#/components/schemas/DeliveryHeaders' } } },
    };
  }
  const allMessages = catalogue.types().map((t) => ({ $ref: `#/channels/webhookEndpoint/messages/${t}` }));
  // What an api channel's webhook_url gets: the routing rules' own list (the dispatcher routes by the same table).
  const channelEvents = o.rules.channelEvents;
  for (const c of channelEvents)
    if (!catalogue.types().includes(c.type)) throw new Error(`the routing rules send ${c.type} to channels, which no module defines`);
  const channelText = channelEvents.map((c) => `\`${c.type}\` for ${c.when}`).join('; ');

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Conversation service: webhook and channel deliveries',
      version: o.version,
      description: [
        'What the service POSTs to your receivers. A **webhook endpoint** (POST /api/webhooks) receives every event its `event_names` filter names (empty: all), appended while it exists and is enabled. An **api channel** with a `webhook_url` receives what its bridge relays: ' +
          channelText +
          '.',
        '',
        'Each request is `POST <url>` with `content-type: application/json`, the body one event envelope `{tenant_id, seq, type, aggregate_type, aggregate_id, payload, created_at}` and nothing else, signed in `x-service-signature` (hex HMAC-SHA256 of the raw body with your secret). Every attempt and every republish of a delivery sends the same bytes. There is no timestamp header: replay protection is deduplication on `seq`, which is per workspace, from 1, without gaps in the log.',
        '',
        retryText,
        '',
        'The same envelope schemas, one per event type, are served by GET /api/events/schemas (scope events:read).',
      ].join('\n'),
    },
    defaultContentType: 'application/json',
    servers: {
      receiver: {
        host: '{receiver}',
        protocol: 'https',
        description: 'Your receiver: the `url` of a webhook endpoint, or the `webhook_url` of an api channel (http is accepted too).',
        variables: { receiver: { description: 'Host (and port) of the URL you registered.' } },
      },
    },
    channels: {
      webhookEndpoint: {
        address: null,
        title: 'A webhook endpoint',
        description: 'The `url` registered with POST /api/webhooks; every event type, as its `event_names` filter selects.',
        servers: [{ $ref: '#/servers/receiver' }],
        messages: Object.fromEntries(catalogue.types().map((t) => [t, { $ref: `#/components/messages/${t}` }])),
        bindings: { http: { bindingVersion: '0.3.0' } },
      },
      channelReplies: {
        address: null,
        title: "An api channel's webhook_url",
        description: `What happens in the channel's conversations that the bridge relays: ${channelText}; nothing else. Signed with the channel's current \`webhook_secret\`.`,
        servers: [{ $ref: '#/servers/receiver' }],
        messages: Object.fromEntries(channelEvents.map((c) => [c.type, { $ref: `#/components/messages/${c.type}` }])),
        bindings: { http: { bindingVersion: '0.3.0' } },
      },
    },
    operations: {
      receiveEvent: {
        action: 'receive',
        title: 'Receive an event',
        summary: 'The service POSTs one event envelope per request to the endpoint.',
        description: retryText,
        channel: { $ref: '#/channels/webhookEndpoint' },
        messages: allMessages,
        bindings: { http: { method: 'POST', bindingVersion: '0.3.0' } },
        'x-retry-policy': retryPolicy,
      },
      receiveChannelReply: {
        action: 'receive',
        title: "Receive a teammate's reply or its retraction (api channels)",
        summary: `The service POSTs to the channel's webhook_url, one request each: ${channelEvents.map((c) => c.type).join(', ')}.`,
        description: retryText,
        channel: { $ref: '#/channels/channelReplies' },
        messages: channelEvents.map((c) => ({ $ref: `#/channels/channelReplies/messages/${c.type}` })),
        bindings: { http: { method: 'POST', bindingVersion: '0.3.0' } },
        'x-retry-policy': retryPolicy,
      },
    },
    components: { schemas, messages },
  };
}
