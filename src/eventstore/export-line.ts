// One event as a line of the audit export (GET /api/audit/export, docs/audit.md):
// the event as stored (personal fields sealed) and its chain hash, in
// JSON.stringify's form, which the verifier requires byte for byte (every byte
// of an export is covered). A store may build the same bytes its own way
// (PostgresEventStore.readTenantLines, without parsing each event).
import { chainedFields } from '../platform/crypto/chain.js';
import type { StoredEvent } from './envelope.js';

/** What of an event its line holds. */
export type LineFields = Pick<
  StoredEvent,
  'tenant_id' | 'seq' | 'id' | 'type' | 'aggregate_type' | 'aggregate_id' | 'payload' | 'metadata' | 'created_at' | 'hash'
>;

export const eventLine = (e: LineFields): string => JSON.stringify({ ...chainedFields(e), hash: e.hash ?? null });

/** An event's export line, with what the export checks of it. */
export interface EventLine {
  seq: number;
  hash: string | null;
  line: string;
}
