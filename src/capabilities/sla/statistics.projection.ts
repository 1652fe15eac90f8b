// Response statistics of each conversation (Intercom's `statistics`), folded from
// its parts: calendar instants and counters, so a rebuild of the log gives the
// same row. Business-time figures are computed from these instants when read.
//
// The table batch sets columns; these need "the first one wins" and "cleared by a
// teammate reply", so the projector folds a batch into one row per conversation
// and writes it with its own upsert, which reads what the stored row already knows.
import type { StoredEvent } from '../../eventstore/envelope.js';
import type { Projector } from '../../projections/projector.js';
import type { Writes } from '../../projections/table-batch.js';
import type { ConversationEvent } from '../conversations/index.js';

type Handled = Extract<ConversationEvent, { type: 'conversation.created' | 'conversation_part.created' }>;

interface Fold {
  tenant_id: string;
  conversation_id: string;
  created_at: string | null;
  state: string | null;
  state_changed_at: string | null;
  /** the batch's first teammate reply before any customer message of the batch: a first response only if the stored row has a customer waiting */
  reply_first: string | null;
  /** the batch's first teammate reply after a customer message of the batch: a first response unless one is stored */
  reply_after_customer: string | null;
  last_response_at: string | null;
  awaiting_since: string | null;
  first_closed_at: string | null;
  last_closed_at: string | null;
  reopens: number;
  teammate_replies: number;
  customer_replies: number;
  seq: number;
}

/** A teammate's reply is a comment sent to the channel; a customer's is a message from the contact. */
const TEAMMATES = new Set(['member', 'api_key']);

export function foldStatistics(events: readonly StoredEvent<Handled>[]): Fold[] {
  const rows = new Map<string, Fold & { sawCustomer: boolean }>();
  const row = (tenant: string, id: string) => {
    const k = `${tenant}\u0000${id}`;
    let r = rows.get(k);
    if (!r) {
      r = {
        tenant_id: tenant,
        conversation_id: id,
        created_at: null,
        state: null,
        state_changed_at: null,
        reply_first: null,
        reply_after_customer: null,
        last_response_at: null,
        awaiting_since: null,
        first_closed_at: null,
        last_closed_at: null,
        reopens: 0,
        teammate_replies: 0,
        customer_replies: 0,
        seq: 0,
        sawCustomer: false,
      };
      rows.set(k, r);
    }
    return r;
  };
  for (const e of events) {
    const r = row(e.tenant_id, e.payload.conversation_id);
    r.seq = Math.max(r.seq, e.seq);
    if (e.type === 'conversation.created') {
      r.created_at = e.created_at;
      r.state = 'open';
      r.state_changed_at = e.created_at;
      continue;
    }
    const p = e.payload;
    if (p.part_type === 'comment' && TEAMMATES.has(p.author.type)) {
      r.teammate_replies += 1;
      if (r.sawCustomer) r.reply_after_customer ??= e.created_at;
      else r.reply_first ??= e.created_at;
      r.last_response_at = e.created_at;
      // A reply ends the customer's wait; last_response_at set in the batch tells the upsert so.
      r.awaiting_since = null;
    } else if (p.part_type === 'message' && p.author.type === 'contact') {
      r.customer_replies += 1;
      r.sawCustomer = true;
      r.awaiting_since ??= e.created_at;
    }
    if (p.state && p.part_type !== 'message' && p.part_type !== 'comment') {
      if (p.state === 'closed') {
        r.first_closed_at ??= e.created_at;
        r.last_closed_at = e.created_at;
      }
      if (p.part_type === 'open') r.reopens += 1;
    }
    if (p.state) {
      r.state = p.state;
      r.state_changed_at = e.created_at;
    }
  }
  return [...rows.values()].map(({ sawCustomer: _s, ...r }) => r);
}

const RECORD =
  'tenant_id uuid, conversation_id uuid, created_at timestamptz, state text, state_changed_at timestamptz, reply_first timestamptz, reply_after_customer timestamptz, last_response_at timestamptz, awaiting_since timestamptz, first_closed_at timestamptz, last_closed_at timestamptz, reopens int, teammate_replies int, customer_replies int, seq bigint';
const COLUMNS = [
  'tenant_id',
  'conversation_id',
  'created_at',
  'state',
  'state_changed_at',
  'first_response_at',
  'last_response_at',
  'awaiting_since',
  'first_closed_at',
  'last_closed_at',
  'reopens',
  'teammate_replies',
  'customer_replies',
  'seq',
];

/**
 * One upsert per batch: the SELECT joins the stored row (one per key in a batch, so
 * it reads the state before the batch) and computes each column from both.
 * The first response is the first teammate reply while a customer waits: a
 * conversation a teammate started has none until the customer has written.
 * The stored rows are named by their ids again, as an index condition: Postgres
 * takes the batch for a hundred rows (a function's default) and the workspace
 * for an average one, and without it joined by hashing all of the workspace's
 * statistics (1,000 rows a reply group in the reply bench;
 * test/projections/tenant-statistics.e2e.test.ts: 2,001 read to upsert 5).
 */
export function writeStatistics(rows: Fold[], writes: Writes): void {
  if (rows.length === 0) return;
  writes.add({
    sql: `INSERT INTO conversation_statistics (${COLUMNS.join(', ')})
      SELECT v.tenant_id, v.conversation_id,
        coalesce(t.created_at, v.created_at),
        CASE WHEN v.state_changed_at IS NULL THEN coalesce(t.state, 'open') ELSE v.state END,
        coalesce(v.state_changed_at, t.state_changed_at),
        coalesce(t.first_response_at, CASE WHEN t.awaiting_since IS NOT NULL THEN v.reply_first END, v.reply_after_customer),
        coalesce(v.last_response_at, t.last_response_at),
        CASE WHEN v.last_response_at IS NOT NULL THEN v.awaiting_since ELSE coalesce(t.awaiting_since, v.awaiting_since) END,
        coalesce(t.first_closed_at, v.first_closed_at),
        coalesce(v.last_closed_at, t.last_closed_at),
        coalesce(t.reopens, 0) + v.reopens,
        coalesce(t.teammate_replies, 0) + v.teammate_replies,
        coalesce(t.customer_replies, 0) + v.customer_replies,
        greatest(t.seq, v.seq)
      FROM jsonb_to_recordset(?::jsonb) AS v(${RECORD})
      LEFT JOIN conversation_statistics t ON t.tenant_id = v.tenant_id AND t.conversation_id = v.conversation_id
        AND t.conversation_id = ANY(?::uuid[])
      ON CONFLICT (tenant_id, conversation_id) DO UPDATE SET ${COLUMNS.slice(2)
        .map((c) => `${c} = EXCLUDED.${c}`)
        .join(', ')}`,
    bindings: [JSON.stringify(rows), rows.map((r) => r.conversation_id)],
  });
}

export const statisticsProjector: Projector<Handled> = {
  name: 'sla-statistics',
  handles: ['conversation.created', 'conversation_part.created'],
  tables: ['conversation_statistics'],
  project(events, writes) {
    writeStatistics(foldStatistics(events), writes);
  },
};
