// Pure routing: which targets an event goes to, given the dispatcher's view of
// endpoints and channels at that point of the log, and how each event moves
// that view. The dispatcher routes an event first and evolves the view after,
// so an endpoint receives events appended while it existed and was enabled:
// not its own creation, but its own update or disabling.
import type { StoredEvent } from '../eventstore/envelope.js';

export interface EndpointView {
  tenantId: string;
  endpointId: string;
  url: string;
  eventNames: string[];
  enabled: boolean;
}

export interface ChannelView {
  tenantId: string;
  channelId: string;
  webhookUrl: string | null;
}

export interface Target {
  kind: 'endpoint' | 'channel';
  id: string;
  url: string;
}

/** One tenant's view; keys are endpoint and channel ids. */
export interface TenantView {
  endpoints: Map<string, EndpointView>;
  channels: Map<string, ChannelView>;
}

/** Events that change the view; every other type only gets routed. */
export const VIEW_EVENTS = ['webhook_endpoint.created', 'webhook_endpoint.updated', 'webhook_endpoint.deleted', 'channel.created', 'channel.updated', 'channel.deleted'] as const;
type ViewEvent = (typeof VIEW_EVENTS)[number];
const isViewEvent = (t: string): t is ViewEvent => (VIEW_EVENTS as readonly string[]).includes(t);

/** Authors whose customer-visible replies a channel's bridge receives. */
const TEAMMATE_AUTHORS = new Set(['member', 'api_key']);

export function matches(endpoint: EndpointView, type: string): boolean {
  return endpoint.enabled && (endpoint.eventNames.length === 0 || endpoint.eventNames.includes(type));
}

/**
 * A channel gets a teammate's customer-visible reply (part_type `comment`,
 * authored by a member or an API key). Notes, the contact's own messages and
 * state changes never go to the bridge.
 */
export function channelReplyTarget(e: StoredEvent, view: TenantView): Target | null {
  if (e.type !== 'conversation_part.created') return null;
  const p = e.payload as { part_type?: string; channel_id?: string; author?: { type?: string } };
  if (p.part_type !== 'comment' || !TEAMMATE_AUTHORS.has(p.author?.type ?? '') || typeof p.channel_id !== 'string') return null;
  const channel = view.channels.get(p.channel_id);
  return channel?.webhookUrl ? { kind: 'channel', id: channel.channelId, url: channel.webhookUrl } : null;
}

export function targetsFor(e: StoredEvent, view: TenantView): Target[] {
  const out: Target[] = [];
  for (const ep of view.endpoints.values()) if (matches(ep, e.type)) out.push({ kind: 'endpoint', id: ep.endpointId, url: ep.url });
  const channel = channelReplyTarget(e, view);
  if (channel) out.push(channel);
  return out;
}

/** What evolving the view changed, so the dispatcher writes only that. */
export type ViewChange =
  | { kind: 'endpoint_put'; view: EndpointView }
  | { kind: 'endpoint_deleted'; tenantId: string; endpointId: string }
  | { kind: 'channel_put'; view: ChannelView }
  | { kind: 'channel_deleted'; tenantId: string; channelId: string };

export function evolve(view: TenantView, e: StoredEvent): ViewChange | null {
  if (!isViewEvent(e.type)) return null;
  const p = e.payload as Record<string, unknown>;
  const type: ViewEvent = e.type;
  switch (type) {
    case 'webhook_endpoint.created': {
      const ep: EndpointView = {
        tenantId: e.tenant_id,
        endpointId: String(p.endpoint_id),
        url: String(p.url),
        eventNames: (p.event_names as string[] | undefined) ?? [],
        enabled: p.enabled !== false,
      };
      view.endpoints.set(ep.endpointId, ep);
      return { kind: 'endpoint_put', view: ep };
    }
    case 'webhook_endpoint.updated': {
      const current = view.endpoints.get(String(p.endpoint_id));
      if (!current) return null;
      const ep: EndpointView = {
        ...current,
        ...(typeof p.url === 'string' ? { url: p.url } : {}),
        ...(Array.isArray(p.event_names) ? { eventNames: p.event_names as string[] } : {}),
        ...(typeof p.enabled === 'boolean' ? { enabled: p.enabled } : {}),
      };
      view.endpoints.set(ep.endpointId, ep);
      return { kind: 'endpoint_put', view: ep };
    }
    case 'webhook_endpoint.deleted':
      view.endpoints.delete(String(p.endpoint_id));
      return { kind: 'endpoint_deleted', tenantId: e.tenant_id, endpointId: String(p.endpoint_id) };
    case 'channel.created': {
      const ch: ChannelView = { tenantId: e.tenant_id, channelId: String(p.channel_id), webhookUrl: typeof p.webhook_url === 'string' ? p.webhook_url : null };
      view.channels.set(ch.channelId, ch);
      return { kind: 'channel_put', view: ch };
    }
    case 'channel.updated': {
      if (!('webhook_url' in p)) return null;
      const ch: ChannelView = { tenantId: e.tenant_id, channelId: String(p.channel_id), webhookUrl: typeof p.webhook_url === 'string' ? p.webhook_url : null };
      view.channels.set(ch.channelId, ch);
      return { kind: 'channel_put', view: ch };
    }
    case 'channel.deleted':
      view.channels.delete(String(p.channel_id));
      return { kind: 'channel_deleted', tenantId: e.tenant_id, channelId: String(p.channel_id) };
    default: {
      const never: never = type;
      return never;
    }
  }
}
