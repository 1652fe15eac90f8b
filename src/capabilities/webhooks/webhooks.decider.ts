// Pure endpoint rules. Events carry the endpoint's settings and never its
// secret: the secret is sealed beside the log (design invariant 6).
import type { WebhookEvent } from './webhooks.events.js';
import { NotFound } from '../../platform/errors.js';

export interface EndpointView {
  id: string;
  url: string;
  eventNames: string[];
  description: string;
  enabled: boolean;
}

export interface EndpointChanges {
  url?: string;
  event_names?: string[];
  description?: string;
  enabled?: boolean;
}

/** Event names are a set; their order as sent is kept for display. */
export const normalizeEventNames = (names: string[]): string[] => [...new Set(names)];

export function decideCreateEndpoint(cmd: { endpointId: string; url: string; eventNames: string[]; description: string; enabled: boolean }): WebhookEvent[] {
  return [
    {
      type: 'webhook_endpoint.created',
      aggregate_type: 'webhook_endpoint',
      aggregate_id: cmd.endpointId,
      payload: {
        endpoint_id: cmd.endpointId,
        url: cmd.url,
        event_names: normalizeEventNames(cmd.eventNames),
        description: cmd.description,
        enabled: cmd.enabled,
      },
    },
  ];
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Only fields that actually change are recorded; no change, no event. */
export function decideUpdateEndpoint(cmd: { endpointId: string; changes: EndpointChanges }, endpoint: EndpointView | null): WebhookEvent[] {
  if (!endpoint) throw new NotFound('webhook endpoint');
  const c = cmd.changes;
  const changed: EndpointChanges = {};
  if (c.url !== undefined && c.url !== endpoint.url) changed.url = c.url;
  if (c.event_names !== undefined && !sameSet(normalizeEventNames(c.event_names), endpoint.eventNames))
    changed.event_names = normalizeEventNames(c.event_names);
  if (c.description !== undefined && c.description !== endpoint.description) changed.description = c.description;
  if (c.enabled !== undefined && c.enabled !== endpoint.enabled) changed.enabled = c.enabled;
  return Object.keys(changed).length
    ? [
        {
          type: 'webhook_endpoint.updated',
          aggregate_type: 'webhook_endpoint',
          aggregate_id: cmd.endpointId,
          payload: { endpoint_id: cmd.endpointId, ...changed },
        },
      ]
    : [];
}

export function decideDeleteEndpoint(cmd: { endpointId: string }, endpoint: EndpointView | null): WebhookEvent[] {
  if (!endpoint) throw new NotFound('webhook endpoint');
  return [{ type: 'webhook_endpoint.deleted', aggregate_type: 'webhook_endpoint', aggregate_id: cmd.endpointId, payload: { endpoint_id: cmd.endpointId } }];
}
