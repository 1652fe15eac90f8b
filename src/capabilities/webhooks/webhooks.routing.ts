// The domain side of routing (src/dispatch/routing.ts applies it): which
// events create, change or remove a delivery destination, and which events a
// channel's bridge receives. Exhaustive over the events that matter, so a new
// endpoint or channel event cannot be forgotten here.
import type { RoutingRules, DestinationChange } from '../../dispatch/routing.js';
import type { StoredEvent } from '../../eventstore/envelope.js';
import type { ChannelEvent } from '../channels/index.js';
import type { ConversationEvent } from '../conversations/index.js';
import { privateViewEvent } from '../views/index.js';
import type { WebhookEvent } from './webhooks.events.js';

/** The target URL scheme of an e-mail channel's replies (`email:support@acme.example`): the e-mail transport sends them. */
export const EMAIL_TARGET = 'email:';

type DestinationEvent = WebhookEvent | ChannelEvent;
const DESTINATION_TYPES: ReadonlySet<string> = new Set<DestinationEvent['type']>([
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'channel.created',
  'channel.updated',
  'channel.secret_rotated',
  'channel.deleted',
]);

/** Authors whose customer-visible replies a channel's bridge receives. */
const TEAMMATE_AUTHORS = new Set(['member', 'api_key']);

function destinationChange(e: DestinationEvent): DestinationChange | null {
  switch (e.type) {
    case 'webhook_endpoint.created':
      return { kind: 'endpoint_created', endpointId: e.payload.endpoint_id, url: e.payload.url, eventNames: e.payload.event_names, enabled: e.payload.enabled };
    case 'webhook_endpoint.updated':
      return { kind: 'endpoint_updated', endpointId: e.payload.endpoint_id, url: e.payload.url, eventNames: e.payload.event_names, enabled: e.payload.enabled };
    case 'webhook_endpoint.deleted':
      return { kind: 'endpoint_deleted', endpointId: e.payload.endpoint_id };
    case 'channel.created':
      // An e-mail channel's replies leave by SMTP: its target is its address, sent by the e-mail transport.
      return {
        kind: 'channel_url',
        channelId: e.payload.channel_id,
        webhookUrl: e.payload.kind === 'email' && e.payload.address ? `${EMAIL_TARGET}${e.payload.address}` : null,
      };
    case 'channel.updated':
      // A disabled channel's bridge gets nothing until it is enabled again.
      return e.payload.webhook_url !== undefined || e.payload.enabled !== undefined
        ? { kind: 'channel_changed', channelId: e.payload.channel_id, webhookUrl: e.payload.webhook_url, enabled: e.payload.enabled }
        : null;
    case 'channel.secret_rotated':
      return null;
    case 'channel.deleted':
      return { kind: 'channel_deleted', channelId: e.payload.channel_id };
    default: {
      const never: never = e;
      return never;
    }
  }
}

type PartCreated = StoredEvent<Extract<ConversationEvent, { type: 'conversation_part.created' }>>;
type PartUnsent = StoredEvent<Extract<ConversationEvent, { type: 'conversation_part.unsent' }>>;

/**
 * What a channel's bridge receives: per event type, the channel it goes to (or
 * null) and, in words, which events of that type. The one table both routing
 * (channelOf) and the AsyncAPI document (channelEvents) read, so they cannot drift.
 */
const CHANNEL_ROUTES: { [T in ConversationEvent['type']]?: { when: string; channelOf(e: StoredEvent): string | null } } = {
  // A teammate's customer-visible reply (part_type `comment`, authored by a member or an API key), or an automation
  // rule's (`reply_with`: authored `{type: 'system', id: 'rule:<id>'}`; an e-mail channel does not send it).
  // Notes, the contact's own messages and state changes never go to the bridge.
  'conversation_part.created': {
    when: "a teammate's customer-visible reply (`payload.part_type` `comment`, `payload.author.type` `member` or `api_key`, or an automation rule's reply, `payload.author` `{type: 'system', id: 'rule:<rule id>'}`; never a note, the contact's own message or a state change)",
    channelOf(e) {
      const p = (e as PartCreated).payload;
      const replier = TEAMMATE_AUTHORS.has(p.author.type) || (p.author.type === 'system' && p.author.id.startsWith('rule:'));
      return p.part_type === 'comment' && replier ? p.channel_id : null;
    },
  },
  // An unsent comment: the bridge retracts the message it delivered.
  'conversation_part.unsent': {
    when: "a teammate's comment its author unsent within the unsend window (ids only), so the bridge retracts the message it delivered for `payload.part_id`",
    channelOf: (e) => (e as PartUnsent).payload.channel_id,
  },
};

export const webhookRoutingRules: RoutingRules = {
  destinationChange: (e) => (DESTINATION_TYPES.has(e.type) ? destinationChange(e as StoredEvent<DestinationEvent>) : null),
  channelOf: (e) => (Object.hasOwn(CHANNEL_ROUTES, e.type) ? CHANNEL_ROUTES[e.type as ConversationEvent['type']]!.channelOf(e) : null),
  channelEvents: Object.entries(CHANNEL_ROUTES).map(([type, r]) => ({ type, when: r!.when })),
  // A member's private view is theirs alone: its name and query go to no endpoint, whatever it subscribed to.
  withheld: privateViewEvent,
};
