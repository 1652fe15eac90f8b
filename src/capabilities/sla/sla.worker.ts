// Appends SLA events without anyone touching the conversation: at a deadline
// (conversation.sla_breached), and after a change of the conversation (a policy
// applies, a target is met, a clock pauses). Every pass looks at the conversations
// whose earliest pending due date has passed, and those whose statistics moved
// since it last evaluated them (sla_watch). Several processes may run it: each
// evaluation is a command under the workspace's lock that emits only what differs
// from the SLA as it stands, so a deadline gives one breach whoever reaches it first.
import type { CoreDeps, Worker } from '../capability.js';
import { coalescing } from '../../platform/worker.js';
import { AppError } from '../../platform/errors.js';
import { evaluateSla } from './sla.commands.js';

/** The poll interval: a breach lands at most about this long after its deadline. */
export const SLA_POLL_MS = 1000;
const BATCH = 200;
/** evaluations in flight at once (see batch) */
const CONCURRENCY = 16;

export interface SlaWorker extends Worker {
  /** one pass (more while a full batch was found); returns how many conversations were evaluated */
  tick(): Promise<number>;
}

export function slaWorker(deps: CoreDeps, options: { pollMs?: number; observe?: (lagMs: number) => void } = {}): SlaWorker {
  const { shell, clock, log } = deps;
  // Across tenants on purpose: the worker serves every workspace (the owner pool, as the unsnooze worker).
  const db = deps.ownerDb ?? deps.db;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function batch(): Promise<{ evaluated: number; full: boolean }> {
    const now = clock.now();
    const due: { tenant_id: string; conversation_id: string; due: Date }[] = await db('conversation_slas')
      .whereRaw('least(first_response_due_at, next_response_due_at, resolution_due_at) <= ?', [now])
      .orderByRaw('least(first_response_due_at, next_response_due_at, resolution_due_at)')
      .limit(BATCH)
      .select('tenant_id', 'conversation_id', db.raw('least(first_response_due_at, next_response_due_at, resolution_due_at) AS due'));
    const changed: { tenant_id: string; conversation_id: string; seq: string }[] = await db('conversation_statistics as s')
      .leftJoin('sla_watch as w', function () {
        this.on('w.tenant_id', 's.tenant_id').andOn('w.conversation_id', 's.conversation_id');
      })
      .whereRaw('(w.seen_seq IS NULL OR s.seq > w.seen_seq)')
      // Only where an SLA can apply or already does: a workspace without policies costs
      // its writes no second command (nor its workspace's slot) here.
      .whereRaw(
        `(EXISTS (SELECT 1 FROM sla_policies p WHERE p.tenant_id = s.tenant_id)
          OR EXISTS (SELECT 1 FROM conversation_slas x WHERE x.tenant_id = s.tenant_id AND x.conversation_id = s.conversation_id AND x.policy_id IS NOT NULL))`,
      )
      .limit(BATCH)
      .select('s.tenant_id', 's.conversation_id', 's.seq');
    const seen = new Map<string, { tenant_id: string; conversation_id: string; seq: string | null; due: Date | null }>();
    for (const d of due) seen.set(`${d.tenant_id}/${d.conversation_id}`, { ...d, seq: null });
    for (const c of changed) {
      const k = `${c.tenant_id}/${c.conversation_id}`;
      seen.set(k, { ...c, due: seen.get(k)?.due ?? null });
    }
    // Several at once: the shell's group commit puts a workspace's concurrent evaluations in one
    // transaction, so a batch of deadlines that came due together lands together instead of one
    // command after another (the bench's sla row: the lag of the last breach of a batch).
    const queue = [...seen.values()];
    const evaluate = async () => {
      for (let c = queue.shift(); c; c = queue.shift()) {
        const { tenant_id: tenantId, conversation_id: conversationId } = c;
        try {
          await deps.scope.run(tenantId, () =>
            shell.execute(
              { tenantId, now: clock.now(), actor: { type: 'system', id: 'sla' } },
              // A policy whose match.query fails is skipped, and said so; the policies after it still apply.
              evaluateSla(conversationId, (policyId, err) =>
                log.warn({ err, tenant_id: tenantId, policy_id: policyId, conversation_id: conversationId }, 'sla policy skipped: its match.query fails'),
              ),
            ),
          );
          if (c.due) options.observe?.(clock.now().getTime() - new Date(c.due).getTime());
        } catch (e) {
          if (!(e instanceof AppError)) log.warn({ err: e, conversation_id: c.conversation_id }, 'sla evaluation failed');
        }
        if (c.seq !== null)
          await db.raw(
            `INSERT INTO sla_watch (tenant_id, conversation_id, seen_seq) VALUES (?, ?, ?)
             ON CONFLICT (tenant_id, conversation_id) DO UPDATE SET seen_seq = greatest(sla_watch.seen_seq, EXCLUDED.seen_seq)`,
            [c.tenant_id, c.conversation_id, c.seq],
          );
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, evaluate));
    return { evaluated: seen.size, full: due.length === BATCH || changed.length === BATCH };
  }

  // Batch after batch while they come full (10,000 conversations created at once, a backlog after a pause).
  async function pass(): Promise<number> {
    let total = 0;
    for (;;) {
      const { evaluated, full } = await batch();
      total += evaluated;
      if (!full || stopped) return total;
    }
  }

  const loop = coalescing(pass, () => stopped);
  return {
    name: 'sla',
    tick: loop.tick,
    async start() {
      timer = setInterval(() => void loop.tick().catch((e) => log.warn({ err: e }, 'sla pass failed')), options.pollMs ?? SLA_POLL_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await loop.idle();
    },
  };
}
