// Two projectors, neither of them the audit log's entries (those are primary data beside the log, which rebuild
// never empties):
//   audit-log         carries out what a member's erasure owes the audit log, in the erasure's own transaction:
//                     which addresses their API keys were used from goes (the entries' addresses are sealed
//                     under the member's key, which the erasure destroys).
//   audit-log-events  the log's metadata for the audit log when the log is EventStoreDB (like feed_events); with
//                     the Postgres store the audit log reads `events` itself and this does not run.
import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import { EVENT_COLUMNS, storedRow } from '../../eventstore/envelope.js';
import type { MemberEvent } from '../members/index.js';

type MemberErased = Extract<MemberEvent, { type: 'member.erased' }>;

/** Matches every address row of a member's keys: the delete is keyed by (tenant, member). */
const ADDRESSES_OF_MEMBER = tableSpec({
  table: 'audit_key_addresses',
  key: ['tenant_id', 'member_id'],
  matches: 'many',
  columns: { tenant_id: 'uuid', member_id: 'uuid' },
} as const);

export const auditErasureProjector: Projector<MemberErased> = {
  name: 'audit-log',
  handles: ['member.erased'],
  tables: [],
  project(events, writes) {
    const rows = writes.table(ADDRESSES_OF_MEMBER);
    for (const e of events) {
      switch (e.type) {
        case 'member.erased':
          rows.delete({ tenant_id: e.tenant_id, member_id: e.payload.member_id });
          break;
        default: {
          const never: never = e.type;
          throw new Error(`audit-log projector: unhandled ${String(never)}`);
        }
      }
    }
  },
};

/** The audit log's copy of the log (EventStoreDB): every column of the event but its payload. */
const { payload: _payload, ...AUDIT_LOG_COLUMNS } = EVENT_COLUMNS;

export const AUDIT_LOG_EVENTS = tableSpec({ table: 'audit_log_events', key: ['tenant_id', 'seq'], columns: AUDIT_LOG_COLUMNS } as const);

/** Every event's metadata as stored (the client sealed), one statement per batch. */
export const auditLogEventsProjector: Projector = {
  name: 'audit-log-events',
  handles: ['*'],
  tables: ['audit_log_events'],
  project(events, writes) {
    const rows = writes.table(AUDIT_LOG_EVENTS);
    for (const e of events) rows.insert(storedRow(e, AUDIT_LOG_EVENTS.columns));
  },
  // With the Postgres store the audit log reads the log itself (logTable).
  copiesLog: true,
};
