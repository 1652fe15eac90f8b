// The domain side of routing (src/dispatch/routing.ts applies it): which
// events create, change or remove a delivery destination, and which events a
// channel's bridge receives. Exhaustive over the events that matter, so a new
// endpoint or channel event cannot be forgotten here.
import type { RoutingRules, DestinationChange } from '../../dispatch/routing.js';
import type { StoredEvent } from '../../eventstore/envelope.js';
import type { ChannelEvent } from '../channels/index.js';
import type { ConversationEvent } from '../conversations/index.js';
import type { WebhookEvent } from './webhooks.events.js';

type DestinationEvent = WebhookEvent | ChannelEvent;
const DESTINATION_TYPES: ReadonlySet<string> = new Set<DestinationEvent['type']>([
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'channel.created',
  'channel.updated',
  'channel.secret_rotated',
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
      return { kind: 'channel_url', channelId: e.payload.channel_id, webhookUrl: null };
    case 'channel.updated':
      return e.payload.webhook_url !== undefined ? { kind: 'channel_url', channelId: e.payload.channel_id, webhookUrl: e.payload.webhook_url } : null;
    case 'channel.secret_rotated':
      return null;
    default: {
      const never: never = e;
      return never;
    }
  }
}

export const webhookRoutingRules: RoutingRules = {
  destinationChange: (e) => (DESTINATION_TYPES.has(e.type) ? destinationChange(e as StoredEvent<DestinationEvent>) : null),
  /**
   * A channel gets a teammate's customer-visible reply (part_type `comment`,
   * authored by a member or an API key). Notes, the contact's own messages and
   * state changes never go to the bridge. An unsend of such a comment does.
   */
  channelOf(e) {
    // An unsent comment: the bridge retracts the message it delivered.
    if (e.type === 'conversation_part.unsent') return (e as StoredEvent<Extract<ConversationEvent, { type: 'conversation_part.unsent' }>>).payload.channel_id;
    if (e.type !== 'conversation_part.created') return null;
    const p = (e as StoredEvent<Extract<ConversationEvent, { type: 'conversation_part.created' }>>).payload;
    return p.part_type === 'comment' && TEAMMATE_AUTHORS.has(p.author.type) ? p.channel_id : null;
  },
};
