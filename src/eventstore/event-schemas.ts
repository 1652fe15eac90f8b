// JSON Schemas of the event envelope, one per event type, from the event
// catalogue: what the change feed lists (with the event's id), what a webhook
// endpoint receives, what GET /api/events/schemas answers and what the
// AsyncAPI document (docs/asyncapi.json) describes.
import type { EventCatalogue, EventDef } from './catalogue.js';
/** A JSON Schema, as plain data. */
type Schema = Record<string, unknown>;

/** `conversation_part.created` → `ConversationPartCreated` */
export const eventTitle = (type: string): string =>
  type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** The payload schema as plain JSON (TypeBox's symbols dropped). */
export const payloadSchema = (def: EventDef): Schema => JSON.parse(JSON.stringify(def.payload)) as Schema;

/**
 * The envelope of one event type, as webhook receivers get it:
 * {tenant_id, seq, type, aggregate_type, aggregate_id, payload, created_at};
 * `withId` adds the event's id, as the change feed lists it.
 */
export function envelopeSchema(def: EventDef, o: { withId?: boolean; title?: string; $id?: string } = {}): Schema {
  const properties: Record<string, Schema> = {
    ...(o.withId ? { id: { type: 'string', format: 'uuid', description: "The event's id." } } : {}),
    tenant_id: { type: 'string', format: 'uuid', description: 'The workspace.' },
    seq: { type: 'integer', minimum: 1, description: 'Per workspace, from 1, without gaps in the log; deduplicate on it.' },
    type: { type: 'string', const: def.type },
    aggregate_type: { type: 'string', const: def.aggregate_type },
    aggregate_id: { type: 'string', description: 'The id of the thing the event is about.' },
    payload: payloadSchema(def),
    created_at: { type: 'string', format: 'date-time' },
  };
  return {
    ...(o.$id ? { $id: o.$id } : {}),
    ...(o.title ? { title: o.title } : {}),
    description: def.description,
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties),
    properties,
  };
}

/** Any event of the catalogue, told apart by `type`. */
export function anyEventSchema(catalogue: EventCatalogue, o: { withId?: boolean; title: string; variantSuffix: string }): Schema {
  return {
    title: o.title,
    oneOf: catalogue.all().map((d) => envelopeSchema(d, { withId: o.withId, title: `${eventTitle(d.type)}${o.variantSuffix}` })),
  };
}

/** The `$id` of an event type's envelope schema (GET /api/events/schemas). */
export const eventSchemaId = (type: string): string => `urn:conversation-service:event:${type}`;

/** One standalone JSON Schema (2020-12) per event type: the envelope a webhook receiver gets. */
export function eventSchemaDocuments(
  catalogue: EventCatalogue,
): { type: 'event_schema'; id: string; aggregate_type: string; description: string; schema: Schema }[] {
  return catalogue.all().map((d) => ({
    type: 'event_schema',
    id: d.type,
    aggregate_type: d.aggregate_type,
    description: d.description,
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      ...envelopeSchema(d, { $id: eventSchemaId(d.type), title: `${eventTitle(d.type)}Envelope` }),
    },
  }));
}
