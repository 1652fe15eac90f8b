// The rules worker's state beside the log: a cursor per workspace (the last
// seq decided on; moved in the transaction that records the decisions, under
// FOR UPDATE SKIP LOCKED, so one process decides a workspace's events at a
// time and a crash redoes the batch), the actions decided (unique per rule,
// event and action, so deciding twice decides nothing new), their claims (a
// lease, as job items) and outcomes, and the last loop stopped per rule.
// "Due" and "expired" are judged by the injected clock, never SQL now().
import type { Knex } from 'knex';
import type { Db } from '../../commands/command.js';
import { deterministicUuid } from '../../platform/ids.js';
import type { RuleAction } from './automation.actions.js';

/** NOTIFY channel that wakes the action runners of every process (sent when actions are decided). */
export const AUTOMATION_CHANNEL = 'automation_actions';

export type ActionStatus = 'pending' | 'succeeded' | 'failed' | 'skipped';

export interface DecidedAction {
  rule_id: string;
  seq: number;
  idx: number;
  position: number;
  conversation_id: string;
  event_type: string;
  event_at: Date;
  chain: string[];
  /** the action as the rule said it when the event was decided on (a later edit of the rule does not change it) */
  action: RuleAction;
}

export interface ClaimedAction extends DecidedAction {
  tenant_id: string;
  id: string;
  attempts: number;
}

/** Of these workspaces, those whose log is past their cursor, or that have none yet (the Postgres store's heads). */
export async function behind(db: Knex, tenants: readonly string[]): Promise<string[]> {
  const res = await db.raw(
    `SELECT t.id AS tenant_id FROM unnest(?::uuid[]) AS t(id)
       JOIN event_heads h ON h.tenant_id = t.id
       LEFT JOIN automation_cursors c ON c.tenant_id = t.id
      WHERE c.seq IS NULL OR h.last_seq > c.seq`,
    [[...tenants]],
  );
  return (res.rows as { tenant_id: string }[]).map((r) => r.tenant_id);
}

/** Workspaces with an enabled rule (every workspace: the owner pool). */
export async function armedTenants(db: Knex): Promise<string[]> {
  const rows: { tenant_id: string }[] = await db('automation_rules').where({ enabled: true }).distinct('tenant_id');
  return rows.map((r) => r.tenant_id);
}

/**
 * Locks the workspace's cursor for this transaction, creating it at `start` when there is none; null when another
 * process holds it (it is deciding these events now).
 */
export async function lockCursor(trx: Knex.Transaction, tenantId: string, start: number): Promise<number | null> {
  await trx.raw('INSERT INTO automation_cursors (tenant_id, seq) VALUES (?, ?) ON CONFLICT (tenant_id) DO NOTHING', [tenantId, start]);
  const row = await trx.raw('SELECT seq FROM automation_cursors WHERE tenant_id = ? FOR UPDATE SKIP LOCKED', [tenantId]);
  return row.rows.length ? Number(row.rows[0].seq) : null;
}

export async function moveCursor(trx: Knex.Transaction, tenantId: string, seq: number): Promise<void> {
  await trx('automation_cursors').where({ tenant_id: tenantId }).update({ seq });
}

export async function cursorOf(db: Knex, tenantId: string): Promise<number | null> {
  const r = await db('automation_cursors').where({ tenant_id: tenantId }).first('seq');
  return r ? Number(r.seq) : null;
}

/** Rows one INSERT takes: 12 parameters each, well under Postgres' 65,535 a statement. */
const INSERT_CHUNK = 1000;

/** Records decided actions; one decided before (a batch redone) is left as it is. */
export async function insertActions(trx: Knex.Transaction, tenantId: string, rows: readonly DecidedAction[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  for (let i = 0; i < rows.length; i += INSERT_CHUNK)
    await trx('automation_actions')
      .insert(
        rows.slice(i, i + INSERT_CHUNK).map((r) => ({
          ...r,
          id: deterministicUuid('automation_action', tenantId, r.rule_id, String(r.seq), String(r.idx)),
          tenant_id: tenantId,
          decided_at: now,
        })),
      )
      .onConflict(['tenant_id', 'rule_id', 'seq', 'idx'])
      .ignore();
  await trx.raw('SELECT pg_notify(?, ?)', [AUTOMATION_CHANNEL, '']);
}

export async function recordLoop(db: Db, tenantId: string, l: { ruleId: string; seq: number; chain: string[]; reason: string; at: Date }): Promise<void> {
  await db.raw(
    `INSERT INTO automation_rule_loops (tenant_id, rule_id, seq, chain, reason, at) VALUES (?, ?, ?, ?::uuid[], ?, ?)
     ON CONFLICT (tenant_id, rule_id) DO UPDATE SET seq = EXCLUDED.seq, chain = EXCLUDED.chain, reason = EXCLUDED.reason, at = EXCLUDED.at
     WHERE automation_rule_loops.seq < EXCLUDED.seq`,
    [tenantId, l.ruleId, l.seq, l.chain, l.reason, l.at],
  );
}

/**
 * Claims up to `limit` pending actions, oldest event first (by its time: seqs are per workspace, so a young
 * workspace's would go before an older one's) and in the rules' order within one, under a lease: a process that
 * dies holding them lets them go when it runs out.
 */
export async function claimActions(db: Knex, now: Date, leaseMs: number, limit: number): Promise<ClaimedAction[]> {
  const res = await db.raw(
    `WITH pick AS (
       SELECT tenant_id, rule_id, seq, idx FROM automation_actions
        WHERE status = 'pending' AND (leased_until IS NULL OR leased_until <= :now)
        ORDER BY event_at, seq, position, idx
        LIMIT :limit
        FOR UPDATE SKIP LOCKED
     )
     UPDATE automation_actions a SET leased_until = :until, attempts = a.attempts + 1
       FROM pick WHERE a.tenant_id = pick.tenant_id AND a.rule_id = pick.rule_id AND a.seq = pick.seq AND a.idx = pick.idx
     RETURNING a.tenant_id, a.id, a.rule_id, a.seq, a.idx, a.position, a.conversation_id, a.event_type, a.event_at, a.chain, a.action, a.attempts`,
    { now, until: new Date(now.getTime() + leaseMs), limit },
  );
  return (res.rows as ClaimedAction[]).map((r) => ({ ...r, seq: Number(r.seq) }));
}

const actionOf = (db: Db, a: Pick<ClaimedAction, 'tenant_id' | 'rule_id' | 'seq' | 'idx'>) =>
  db('automation_actions').where({ tenant_id: a.tenant_id, rule_id: a.rule_id, seq: a.seq, idx: a.idx });

/** An action's outcome, once: false when it has one already (another process ran it, or its rule was deleted). */
export async function settleAction(
  db: Db,
  a: Pick<ClaimedAction, 'tenant_id' | 'rule_id' | 'seq' | 'idx'>,
  status: Exclude<ActionStatus, 'pending'>,
  at: Date,
  error: { code: string; message: string } | null = null,
): Promise<boolean> {
  const n = await actionOf(db, a)
    .andWhere({ status: 'pending' })
    .update({ status, error_code: error?.code ?? null, error_message: error?.message ?? null, finished_at: at, leased_until: null });
  return n > 0;
}

/** Lets a claim go until `retryAt` (a failed attempt); `untried`: the attempt it counted is given back. */
export async function releaseAction(db: Db, a: Pick<ClaimedAction, 'tenant_id' | 'rule_id' | 'seq' | 'idx'>, retryAt: Date, untried = false): Promise<void> {
  await actionOf(db, a)
    .andWhere({ status: 'pending' })
    .update({ leased_until: retryAt, ...(untried ? { attempts: db.raw('greatest(attempts - 1, 0)') } : {}) });
}

/** How long a run log keeps an action after its outcome. */
export const RUN_LOG_DAYS = 30;

/**
 * Forgets actions whose outcome is older than `before`, a bounded number at a time. Safe for exactly once: the
 * decider never goes back over events its cursor passed, so no action forgotten here is decided again.
 */
export async function pruneActions(db: Knex, before: Date, limit = 10_000): Promise<number> {
  const res = await db.raw(
    `DELETE FROM automation_actions WHERE id IN (
       SELECT id FROM automation_actions WHERE status <> 'pending' AND finished_at < ? ORDER BY finished_at LIMIT ?)`,
    [before, limit],
  );
  return res.rowCount ?? 0;
}

/** A deleted rule's work not yet done: its actions not yet run, its calls not yet delivered; and its loop. Its run log stays (the metrics count it). */
export async function forgetRule(db: Db, tenantId: string, ruleId: string): Promise<void> {
  await db('automation_actions').where({ tenant_id: tenantId, rule_id: ruleId, status: 'pending' }).del();
  await db('automation_rule_loops').where({ tenant_id: tenantId, rule_id: ruleId }).del();
  await db('webhook_deliveries').where({ tenant_id: tenantId, target_kind: 'rule', target_id: ruleId, state: 'pending' }).del();
}
