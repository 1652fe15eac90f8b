// Pure routing: which targets an event goes to, given the dispatcher's view of
// endpoints and channels at that point of the log, and how each event moves
// that view. The dispatcher routes an event first and evolves the view after,
// so an endpoint receives events appended while it existed and was enabled:
// not its own creation, but its own update or disabling.
//
// Which events create, change or remove a destination, and which go to a
// channel's bridge, is domain knowledge: the webhooks capability passes it in
// as RoutingRules. This file only applies it.
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
  /** a disabled channel's bridge gets nothing (its deliveries already made wait, like a disabled endpoint's) */
  enabled: boolean;
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

/** How an event changes the destinations, as the rules read it. */
export type DestinationChange =
  | { kind: 'endpoint_created'; endpointId: string; url: string; eventNames: string[]; enabled: boolean }
  | { kind: 'endpoint_updated'; endpointId: string; url?: string; eventNames?: string[]; enabled?: boolean }
  | { kind: 'endpoint_deleted'; endpointId: string }
  | { kind: 'channel_url'; channelId: string; webhookUrl: string | null }
  | { kind: 'channel_changed'; channelId: string; webhookUrl?: string | null; enabled?: boolean }
  | { kind: 'channel_deleted'; channelId: string };

export interface RoutingRules {
  /** how the event changes the destinations; null for every other event */
  destinationChange(e: StoredEvent): DestinationChange | null;
  /** the channel whose bridge receives this event, if any; null for every type not in channelEvents */
  channelOf(e: StoredEvent): string | null;
  /**
   * The event types a channel's bridge can receive (its webhook_url), each with
   * which of them it gets: what the AsyncAPI document lists for that channel.
   */
  readonly channelEvents: readonly { type: string; when: string }[];
  /** events no target receives, whatever it subscribed to (a member's private view) */
  withheld(e: StoredEvent): boolean;
}

export function matches(endpoint: EndpointView, type: string): boolean {
  return endpoint.enabled && (endpoint.eventNames.length === 0 || endpoint.eventNames.includes(type));
}

export function targetsFor(e: StoredEvent, view: TenantView, rules: RoutingRules): Target[] {
  const out: Target[] = [];
  if (rules.withheld(e)) return out;
  for (const ep of view.endpoints.values()) if (matches(ep, e.type)) out.push({ kind: 'endpoint', id: ep.endpointId, url: ep.url });
  const channelId = rules.channelOf(e);
  const channel = channelId ? view.channels.get(channelId) : undefined;
  if (channel?.webhookUrl && channel.enabled) out.push({ kind: 'channel', id: channel.channelId, url: channel.webhookUrl });
  return out;
}

/** What evolving the view changed, so the dispatcher writes only that. */
export type ViewChange =
  | { kind: 'endpoint_put'; view: EndpointView }
  | { kind: 'endpoint_deleted'; tenantId: string; endpointId: string }
  | { kind: 'channel_put'; view: ChannelView }
  | { kind: 'channel_deleted'; tenantId: string; channelId: string };

export function evolve(view: TenantView, e: StoredEvent, rules: RoutingRules): ViewChange | null {
  const c = rules.destinationChange(e);
  if (!c) return null;
  switch (c.kind) {
    case 'endpoint_created': {
      const ep: EndpointView = { tenantId: e.tenant_id, endpointId: c.endpointId, url: c.url, eventNames: c.eventNames, enabled: c.enabled };
      view.endpoints.set(ep.endpointId, ep);
      return { kind: 'endpoint_put', view: ep };
    }
    case 'endpoint_updated': {
      const current = view.endpoints.get(c.endpointId);
      if (!current) return null;
      const ep: EndpointView = {
        ...current,
        ...(c.url !== undefined ? { url: c.url } : {}),
        ...(c.eventNames !== undefined ? { eventNames: c.eventNames } : {}),
        ...(c.enabled !== undefined ? { enabled: c.enabled } : {}),
      };
      view.endpoints.set(ep.endpointId, ep);
      return { kind: 'endpoint_put', view: ep };
    }
    case 'endpoint_deleted':
      view.endpoints.delete(c.endpointId);
      return { kind: 'endpoint_deleted', tenantId: e.tenant_id, endpointId: c.endpointId };
    case 'channel_url': {
      const ch: ChannelView = {
        tenantId: e.tenant_id,
        channelId: c.channelId,
        webhookUrl: c.webhookUrl,
        enabled: view.channels.get(c.channelId)?.enabled ?? true,
      };
      view.channels.set(ch.channelId, ch);
      return { kind: 'channel_put', view: ch };
    }
    case 'channel_changed': {
      const current = view.channels.get(c.channelId);
      const ch: ChannelView = {
        tenantId: e.tenant_id,
        channelId: c.channelId,
        webhookUrl: c.webhookUrl !== undefined ? c.webhookUrl : (current?.webhookUrl ?? null),
        enabled: c.enabled ?? current?.enabled ?? true,
      };
      view.channels.set(ch.channelId, ch);
      return { kind: 'channel_put', view: ch };
    }
    case 'channel_deleted':
      view.channels.delete(c.channelId);
      return { kind: 'channel_deleted', tenantId: e.tenant_id, channelId: c.channelId };
    default: {
      const never: never = c;
      return never;
    }
  }
}
