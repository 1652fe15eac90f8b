// The AsyncAPI 3 document of what the service sends: webhook deliveries to
// endpoints, teammates' replies (and their retractions) to api channels, and
// automation rules' `call_url` requests. Generated from the event catalogue
// (one message per event type, its envelope as the payload), the routing
// rules' list of what channels get, the sender's headers and the retry policy,
// so none of it can drift from what the dispatcher does. The one message that
// is not an event, a rule's call, is written here: its body is the one
// `call` in src/capabilities/automation/automation.worker.ts builds (change
// both together); the events that can be in it are the catalogue's conversation
// events, as for a rule's `on`. `npm run docs:asyncapi` writes
// docs/asyncapi.json; a test regenerates it and fails on any difference.
import type { EventCatalogue } from '../eventstore/catalogue.js';
import { envelopeSchema, eventTitle } from '../eventstore/event-schemas.js';
import { MAX_ATTEMPTS, retryWindowSeconds } from './retry-policy.js';
import type { RoutingRules } from './routing.js';
import { SIGNATURE_HEADER } from './sender.js';

/** The body type of an automation rule's call (src/capabilities/automation/automation.worker.ts). */
const RULE_CALL_TYPE = 'automation_rule.call';

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
  const ruleRetryText =
    `A failed attempt is retried as a webhook delivery is: ${MAX_ATTEMPTS} attempts in all, the first wait ${o.retryBaseSeconds} s, doubling after each failure ` +
    `(${delays.join(', ')} s). After the ${MAX_ATTEMPTS}th failure the call is dead (POST /api/automation_rules/{id}/deliveries/{delivery_id}/retry republishes it). ` +
    "Answer any 2xx quickly (redirects are not followed). Delivery is at least once: deduplicate on (rule_id, event.seq, action_index), which names one call of one rule's action for one event.";
  const ruleRetryPolicy = {
    ...retryPolicy,
    after_last_failure:
      "the call is dead (its delivery log, GET /api/automation_rules/{id}/deliveries, shows it); POST /api/automation_rules/{id}/deliveries/{delivery_id}/retry republishes it (same seq and bytes, to the rule's call_url as it is then)",
  };
  // What can set a rule off, and so be a call's `event`: the events of conversations (as the rules' `on` accepts).
  const ruleTriggers = catalogue
    .all()
    .filter((d) => d.aggregate_type === 'conversation')
    .map((d) => d.type);

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
            "Hex HMAC-SHA256 of the raw request body (the exact bytes, before any JSON parsing), keyed with the endpoint's secret (whsec_…), the channel's webhook_secret, or the automation rule's secret (whsec_…, in the answer that created the rule). Compare in constant time.",
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
  schemas.AutomationRuleCall = {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'rule_id', 'action_index', 'event', 'conversation'],
    description:
      "What an automation rule's `call_url` action POSTs: the rule, which of its actions, the event that set it off and the conversation. Personal fields (of the event's payload and of the conversation) are kept sealed with the call and opened when it is sent: null once their subject is erased, as in a webhook's envelope.",
    properties: {
      type: { type: 'string', const: RULE_CALL_TYPE },
      rule_id: { type: 'string', format: 'uuid', description: 'The rule (GET /api/automation_rules/{id}).' },
      action_index: {
        type: 'integer',
        minimum: 0,
        description: "Which of the rule's actions (`then`, from 0) this call is: the run log's `action_index`.",
      },
      event: {
        description:
          'The event that set the rule off, its envelope exactly as a webhook endpoint receives it (one of the conversation events a rule may name in `on`); null when it could not be read.',
        oneOf: [...ruleTriggers.map((t) => ({ $ref: `#/components/schemas/${eventTitle(t)}Envelope` })), { type: 'null' }],
      },
      conversation: {
        description:
          "The conversation as GET /api/conversations/{id} answers it, without `parts` (the `Conversation` schema of openapi.json), read when the rule's action ran (after the event, so it may show later changes); null when it could not be read.",
        oneOf: [
          {
            type: 'object',
            required: ['type', 'id'],
            properties: { type: { type: 'string', const: 'conversation' }, id: { type: 'string', format: 'uuid' } },
            additionalProperties: true,
          },
          { type: 'null' },
        ],
      },
    },
  };
  const ruleCall = {
    name: RULE_CALL_TYPE,
    title: "An automation rule's call",
    summary:
      "A rule's `call_url` action: one request per rule, event and action, signed with the rule's secret as webhooks are. Made once the action runs (after the event's commit, in the rules worker); its delivery log is GET /api/automation_rules/{id}/deliveries.",
    contentType: 'application/json',
    headers: { $ref: '#/components/schemas/DeliveryHeaders' },
    payload: { $ref: '#/components/schemas/AutomationRuleCall' },
    bindings: { http: { headers: { $ref: '#/components/schemas/DeliveryHeaders' } } },
  };
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
          '. An **automation rule** (POST /api/automation_rules) with a `call_url` action POSTs to that URL each time the action runs.',
        '',
        'Each request to an endpoint or a channel is `POST <url>` with `content-type: application/json`, the body one event envelope `{tenant_id, seq, type, aggregate_type, aggregate_id, payload, created_at}` and nothing else, signed in `x-service-signature` (hex HMAC-SHA256 of the raw body with your secret). Every attempt and every republish of a delivery sends the same bytes. There is no timestamp header: replay protection is deduplication on `seq`, which is per workspace, from 1, without gaps in the log.',
        '',
        retryText,
        '',
        `A rule's call is \`POST <call_url>\` with the same headers, its body \`{"type":"${RULE_CALL_TYPE}","rule_id","action_index","event","conversation"}\` (\`event\`: the envelope of the conversation event that set the rule off, as an endpoint receives it; \`conversation\`: the conversation as the API answers it), signed the same way with the rule's secret, shown once when the rule was created. ${ruleRetryText}`,
        '',
        'The same envelope schemas, one per event type, are served by GET /api/events/schemas (scope events:read).',
      ].join('\n'),
    },
    defaultContentType: 'application/json',
    servers: {
      receiver: {
        host: '{receiver}',
        protocol: 'https',
        description:
          "Your receiver: the `url` of a webhook endpoint, the `webhook_url` of an api channel, or an automation rule's `call_url` (http is accepted too).",
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
      automationRuleCalls: {
        address: null,
        title: "An automation rule's call_url",
        description:
          "The URL of a rule's `call_url` action (POST /api/automation_rules): one request each time the action runs, that is once per rule, event and action. Signed with the rule's secret; the same URL policy, retries and delivery log as a webhook endpoint.",
        servers: [{ $ref: '#/servers/receiver' }],
        messages: { [RULE_CALL_TYPE]: ruleCall },
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
      receiveRuleCall: {
        action: 'receive',
        title: "Receive an automation rule's call",
        summary: "The service POSTs to a rule's call_url, once per rule, event and `call_url` action.",
        description: ruleRetryText,
        channel: { $ref: '#/channels/automationRuleCalls' },
        messages: [{ $ref: `#/channels/automationRuleCalls/messages/${RULE_CALL_TYPE}` }],
        bindings: { http: { method: 'POST', bindingVersion: '0.3.0' } },
        'x-retry-policy': ruleRetryPolicy,
      },
    },
    components: { schemas, messages },
  };
}
