// The domain event envelope of spec 2.4, exactly. It is what the change feed
// returns and what webhook receivers get; nothing else may be added to it.
export interface EventEnvelope {
  tenant_id: string;
  seq: number;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
  created_at: string;
}

/** Internal metadata travels beside the envelope, never inside it. */
export interface EventMetadata {
  /**
   * Who acted. A rule's actions carry `chain`: the rules whose actions led to this change, then the rule itself
   * (src/capabilities/automation: a rule never runs twice in one chain, and a chain holds at most 3).
   */
  actor?: { type: 'member' | 'api_key' | 'channel' | 'system' | 'job' | 'rule'; id: string; member_id?: string; chain?: string[] };
  idempotency_key?: string;
  causation_id?: string;
  request_id?: string;
}

/**
 * An event as a decider produces it: no seq yet, no time yet. Capabilities
 * narrow it to their own union (see src/eventstore/catalogue.ts); the stores
 * and engines below them handle any event.
 */
export interface NewEvent {
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
}

/** An event ready to append: the shell has given it an id, a time and metadata. */
export interface PendingEvent extends NewEvent {
  id: string;
  created_at: string;
  metadata: EventMetadata;
}

interface StoredFields {
  tenant_id: string;
  seq: number;
  created_at: string;
  id: string;
  metadata: EventMetadata;
  /** orders events across tenants for subscriptions */
  position: string;
  /**
   * The payload as the log keeps it, personal fields sealed (present when it has
   * any): what copies that must stay forgettable store (feed table, deliveries).
   */
  sealed_payload?: Record<string, unknown>;
  /** its link in the workspace's hash chain (docs/audit.md); absent only where the chain was off (AUDIT_CHAIN, a bench switch) */
  hash?: string;
}

/** An event as read back from a store, typed as the union `E` its reader handles. */
export type StoredEvent<E extends NewEvent = NewEvent> = E & StoredFields;

/**
 * An event as stored, column by column, in the log's order, with each column's Postgres type: declared once. The
 * hash chain covers these (chainedFields, src/platform/crypto/chain.ts, in this order: a test holds it to this
 * list), the audit export's lines carry them, and every copy of the log takes its columns from here (the feed's
 * and the audit log's tables). (audit-verify.ts lists them again on purpose: the auditor's verifier shares no code
 * with the service it checks.)
 */
export const EVENT_COLUMNS = {
  tenant_id: 'uuid',
  seq: 'bigint',
  id: 'uuid',
  type: 'text',
  aggregate_type: 'text',
  aggregate_id: 'text',
  payload: 'jsonb',
  metadata: 'jsonb',
  created_at: 'timestamptz',
} as const;

export type EventColumn = keyof typeof EVENT_COLUMNS;

/** A copy's row of an event: the columns it keeps, as stored (the payload sealed, as in the log). */
export function storedRow(e: StoredEvent, columns: Readonly<Partial<Record<EventColumn, string>>>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const c of Object.keys(columns) as EventColumn[]) row[c] = c === 'payload' ? (e.sealed_payload ?? e.payload) : e[c];
  return row;
}

export function toEnvelope(e: StoredEvent): EventEnvelope {
  return {
    tenant_id: e.tenant_id,
    seq: e.seq,
    type: e.type,
    aggregate_type: e.aggregate_type,
    aggregate_id: e.aggregate_id,
    payload: e.payload,
    created_at: e.created_at,
  };
}

/**
 * The first event of `type` among a command's events, typed by its declaration:
 * `eventOf(events, 'conversation_part.created').payload.part_id`, instead of a
 * cast. Throws when the command wrote none (a route asked for what its command does not write).
 */
export function eventOf<E extends NewEvent, T extends E['type']>(events: readonly StoredEvent<E>[], type: T): StoredEvent<Extract<E, { type: T }>> {
  const found = events.find((e) => e.type === type);
  if (!found) throw new Error(`the command wrote no ${type} event (it wrote ${events.map((e) => e.type).join(', ') || 'nothing'})`);
  return found as StoredEvent<Extract<E, { type: T }>>;
}
