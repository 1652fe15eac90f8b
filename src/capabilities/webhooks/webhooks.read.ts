// Reading endpoints and their delivery log, and the answer shapes. No answer
// shape here has a place for the secret: only the creation answer adds it.
import type { Knex } from 'knex';
import type { Db } from '../../commands/command.js';
import { type ListSpec, byCreatedAt } from '../../api/pagination/list.js';
import type { DeliveryRow, TargetKind } from '../../dispatch/deliveries.repo.js';
import { isUuid } from '../../platform/ids.js';
import { arrayOf, bool, constant, dateTime, extend, int, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import type { EndpointView } from './webhooks.decider.js';
import type { ENDPOINTS } from './webhooks.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `webhook_endpoints` (RowOf: its spec's columns, NULL where the table takes it). */
export type EndpointRow = RowOf<typeof ENDPOINTS>;

export const endpointList: ListSpec = byCreatedAt('webhook_endpoint', 'asc');

// Newest first. `ord` is the insertion order of the outbox, which is creation
// order; unlike created_at it never ties (many deliveries share a dispatch instant).
export const deliveryList: ListSpec = {
  itemType: 'webhook_delivery',
  sorts: { created_at: { column: 'ord', kind: 'number' }, seq: { column: 'seq', kind: 'number' } },
  defaultSort: 'created_at',
  defaultOrder: 'desc',
};

export const renderEndpoint = (e: EndpointRow): WebhookEndpoint => ({
  type: 'webhook_endpoint',
  id: e.id,
  url: e.url,
  event_names: e.event_names,
  description: e.description,
  enabled: e.enabled,
  created_at: e.created_at.toISOString(),
  updated_at: e.updated_at.toISOString(),
});

export const renderDelivery = (d: DeliveryRow): WebhookDelivery => ({
  type: 'webhook_delivery',
  id: d.id,
  endpoint_id: d.target_id,
  seq: Number(d.seq),
  event_type: d.event_type,
  state: d.state,
  attempts: d.attempts,
  last_status: d.last_status,
  last_error: d.last_error,
  last_attempt_at: d.last_attempt_at?.toISOString() ?? null,
  next_attempt_at: d.next_attempt_at?.toISOString() ?? null,
  created_at: d.created_at.toISOString(),
  delivered_at: d.delivered_at?.toISOString() ?? null,
  republished: d.series > 0,
});

export interface AttemptRow {
  attempt: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
  at: Date;
}

export const renderAttempt = (a: AttemptRow): DeliveryAttempt => ({
  attempt: a.attempt,
  at: a.at.toISOString(),
  status: a.status,
  error: a.error,
  duration_ms: a.duration_ms,
});

export const endpointsOf = (db: Db, tenantId: string) => db('webhook_endpoints').where({ tenant_id: tenantId });

export async function findEndpoint(db: Db, tenantId: string, id: string): Promise<EndpointRow | undefined> {
  return isUuid(id) ? endpointsOf(db, tenantId).andWhere({ id }).first() : undefined;
}

export const endpointView = (e: EndpointRow | undefined): EndpointView | null =>
  e ? { id: e.id, url: e.url, eventNames: e.event_names, description: e.description, enabled: e.enabled } : null;

/** Deliveries to a webhook endpoint, to a channel's webhook_url (channel replies), or of a rule's calls. */
export const deliveriesOf = (db: Knex, tenantId: string, targetId: string, kind: TargetKind = 'endpoint') =>
  db('webhook_deliveries').where({ tenant_id: tenantId, target_kind: kind, target_id: targetId });

export async function findDelivery(db: Knex, tenantId: string, targetId: string, id: string, kind: TargetKind = 'endpoint'): Promise<DeliveryRow | undefined> {
  return isUuid(id) ? deliveriesOf(db, tenantId, targetId, kind).andWhere({ id }).first() : undefined;
}

export async function attemptsOf(db: Knex, tenantId: string, deliveryId: string): Promise<AttemptRow[]> {
  return db('webhook_delivery_attempts').where({ tenant_id: tenantId, delivery_id: deliveryId }).orderBy('id', 'asc');
}

export const endpointSchema = object(
  {
    type: constant('webhook_endpoint'),
    id: uuid,
    url: str(),
    event_names: arrayOf(str(), { description: 'Event types delivered; empty means every event.' }),
    description: str(),
    enabled: bool,
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'WebhookEndpoint' },
);
export type WebhookEndpoint = Static<typeof endpointSchema>;

export const endpointWithSecretSchema = extend(
  endpointSchema,
  { secret: str({ pattern: '^whsec_', description: 'The signing secret, shown this once.' }) },
  { title: 'WebhookEndpointWithSecret' },
);

export const deletedEndpointSchema = object({ type: constant('webhook_endpoint'), id: uuid, deleted: constant(true) }, { title: 'DeletedWebhookEndpoint' });
export type DeletedWebhookEndpoint = Static<typeof deletedEndpointSchema>;

export const deliverySchema = object(
  {
    type: constant('webhook_delivery'),
    id: uuid,
    endpoint_id: uuid,
    seq: int,
    event_type: str(),
    state: oneOfStrings(['pending', 'delivered', 'dead']),
    attempts: int,
    last_status: nullable(int),
    last_error: nullable(str()),
    last_attempt_at: nullable(dateTime),
    next_attempt_at: nullable(dateTime),
    created_at: dateTime,
    delivered_at: nullable(dateTime),
    republished: bool,
  },
  {
    title: 'WebhookDelivery',
    description: "One delivery of an event to a webhook endpoint, or of a reply to a channel (then endpoint_id is the channel's id).",
  },
);
export type WebhookDelivery = Static<typeof deliverySchema>;

export const attemptSchema = object(
  { attempt: int, at: dateTime, status: nullable(int), error: nullable(str()), duration_ms: int },
  { title: 'DeliveryAttempt' },
);
type DeliveryAttempt = Static<typeof attemptSchema>;

export const deliveryWithAttemptsSchema = extend(deliverySchema, { attempt_log: arrayOf(attemptSchema) }, { title: 'WebhookDeliveryWithAttempts' });
export type WebhookDeliveryWithAttempts = Static<typeof deliveryWithAttemptsSchema>;
