// Runs automation rules, in two steps that share nothing but tables, so a
// process killed between them loses nothing and does nothing twice:
//  1. Deciding: follows each workspace with enabled rules from its cursor (the
//     last seq decided on). For every conversation event it finds the rules it
//     sets off (their `on`, their `if` on the conversation as it is then, the
//     loop rules) and records one row per rule, event and action, in the
//     transaction that moves the cursor. The cursor is locked FOR UPDATE SKIP
//     LOCKED, so one process decides a workspace at a time; a crash redoes the
//     batch, and the rows' key makes that decide nothing new.
//  2. Acting: claims decided actions under a lease (as job items) and runs each
//     as the command a teammate's request would be, acting as the rule
//     (`{type: 'rule', id, chain}` on its events and in the audit log); its
//     outcome is written in that command's transaction. So an action is done
//     exactly when its change committed, once, whichever process runs it. A
//     `call_url` is a delivery in the webhook outbox, created in the
//     transaction that settles the action (its key: the rule, the event, the
//     action), then sent, signed and retried by the delivery worker.
// Woken by every commit (this process's, and the log's NOTIFY), with a poll tick as the net.
import type { Knex } from 'knex';
import type { CoreDeps, Worker } from '../capability.js';
import type { CommandContext, CommandSpec } from '../../commands/command.js';
import { toEnvelope, type NewEvent } from '../../eventstore/envelope.js';
import { EVENTS_CHANNEL } from '../../eventstore/postgres.store.js';
import { insertDeliveries, DELIVERIES_CHANNEL } from '../../dispatch/deliveries.repo.js';
import { AppError } from '../../platform/errors.js';
import { deterministicUuid } from '../../platform/ids.js';
import { notifiedWorker } from '../../platform/worker.js';
import { ALREADY_SO, ConversationAnswers, conversationMatches, findConversation, type Author } from '../conversations/index.js';
import { findSavedReply, renderForConversation } from '../saved-replies/index.js';
import { actionSpec } from './automation.actions.js';
import { CONVERSATION_AGGREGATES, decideTriggers } from './automation.decider.js';
import { armedRules } from './automation.read.js';
import {
  armedTenants,
  AUTOMATION_CHANNEL,
  behind,
  claimActions,
  insertActions,
  lockCursor,
  moveCursor,
  pruneActions,
  recordLoop,
  releaseAction,
  RUN_LOG_DAYS,
  settleAction,
  type ClaimedAction,
  type DecidedAction,
} from './automation.repo.js';

/** Events one decision transaction reads. */
const BATCH = 200;
/** How often a runner forgets the run logs' old outcomes. */
const PRUNE_EVERY_MS = 3_600_000;
/** Batches a workspace is decided in before the next workspace's turn. */
const BATCHES_PER_TURN = 5;
/** Actions one claim takes. */
const CLAIM = 64;
/** Conversations whose actions run at once (see runClaimed). */
const CONCURRENCY = 16;
/** Attempts before an action whose command keeps failing (a database error, not a refusal) is marked failed. */
export const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 1_000;
/** How long the set of workspaces with rules is trusted before it is read again. */
const ARMED_TTL_MS = 1_000;

export interface AutomationWorker extends Worker {
  /** one pass of each step: events decided on, then actions with an outcome */
  tick(): Promise<number>;
}

/** Thrown inside an action's command when the action has its outcome already: its change is rolled back. */
class ActionNotPending extends Error {}

/** The chain of rules an event's actor carries (none: a person, a key, a channel or the service caused it). */
const chainOf = (actor: { type: string; id: string; chain?: string[] } | undefined): string[] => (actor?.type === 'rule' ? (actor.chain ?? [actor.id]) : []);

export function automationWorker(deps: CoreDeps): { decider: AutomationWorker; runner: AutomationWorker } {
  const { shell, clock, log, store, config } = deps;
  // Across workspaces on purpose: the worker serves every workspace (the owner pool, as the SLA worker).
  const db: Knex = deps.ownerDb ?? deps.db;
  const answers = ConversationAnswers.of(deps.additions);
  let armed: { tenants: Set<string>; at: number } | null = null;

  async function armedNow(): Promise<Set<string>> {
    const now = Date.now();
    if (!armed || now - armed.at > ARMED_TTL_MS) armed = { tenants: new Set(await armedTenants(db)), at: now };
    return armed.tenants;
  }

  /** Decides one workspace's events from its cursor on, a batch per transaction; returns how many it read. */
  async function decideTenant(tenantId: string, stopping: () => boolean): Promise<number> {
    let read = 0;
    // A few batches, then the other workspaces' turn (the pass runs again while there is more).
    for (let batch = 0; batch < BATCHES_PER_TURN; batch++) {
      const enabled = await armedRules(db, tenantId);
      if (enabled.length === 0 || stopping()) return read;
      // A rule applies to what was committed after it was created or last enabled.
      const start = Math.min(...enabled.map((r) => r.enabledSeq));
      const n = await db.transaction(async (trx) => {
        const cursor = await lockCursor(trx, tenantId, start);
        if (cursor === null) return 0; // another process is deciding this workspace
        const events = await store.readTenant(tenantId, Math.max(cursor, start), BATCH, { sealed: true });
        if (events.length === 0) return 0;
        // The rules as they are now, read after the events and held (FOR SHARE) until this decision commits: a rule
        // created before the read is in (one created after applies to later events only), and a rule's deletion
        // waits for this commit, so the deletion drops what was decided here for it.
        const rules = await armedRules(trx, tenantId, { hold: true });
        const now = clock.now();
        const decided: DecidedAction[] = [];
        for (const e of events) {
          if (!CONVERSATION_AGGREGATES.has(e.aggregate_type)) continue;
          const chain = chainOf(e.metadata?.actor);
          const { fire, stopped } = decideTriggers(e, chain, rules);
          if (fire.length === 0 && stopped.length === 0) continue;
          // Every candidate's `if`, in one statement: a loop is only one where the rule would have run.
          const candidates = [...fire, ...stopped];
          const queried = candidates.filter((f) => f.rule.if !== null);
          const matched = await conversationMatches(
            trx,
            tenantId,
            e.aggregate_id,
            queried.map((f) => f.rule.if),
            (i, err) => log.warn({ err, tenant_id: tenantId, rule_id: queried[i]!.rule.id }, 'automation rule skipped: its `if` fails'),
          );
          const passes = new Set(queried.filter((_f, i) => matched[i]).map((f) => f.rule.id));
          const applies = (f: { rule: { id: string; if: unknown } }) => f.rule.if === null || passes.has(f.rule.id);
          for (const s of stopped.filter(applies)) {
            log.warn({ tenant_id: tenantId, rule_id: s.rule.id, seq: e.seq, chain: s.chain, reason: s.reason }, 'automation rule stopped by the loop rules');
            await recordLoop(trx, tenantId, { ruleId: s.rule.id, seq: e.seq, chain: s.chain, reason: s.reason, at: now });
          }
          for (const f of fire) {
            if (!applies(f)) continue;
            for (const [idx, action] of f.rule.then.entries())
              decided.push({
                rule_id: f.rule.id,
                seq: e.seq,
                idx,
                position: f.rule.position,
                conversation_id: e.aggregate_id,
                event_type: e.type,
                event_at: new Date(e.created_at),
                chain: f.chain,
                action,
              });
          }
        }
        await insertActions(trx, tenantId, decided, now);
        await moveCursor(trx, tenantId, events.at(-1)!.seq);
        return events.length;
      });
      read += n;
      if (n < BATCH) return read;
    }
    return read;
  }

  async function decidePass(stopping: () => boolean): Promise<number> {
    let read = 0;
    const armedSet = await armedNow();
    if (armedSet.size === 0) return 0;
    // In the Postgres store, only the workspaces whose log moved past their cursor: a commit anywhere wakes every
    // process's decider, and a workspace with nothing new costs nothing then.
    const due = store.kind === 'postgres' ? await behind(db, [...armedSet]) : [...armedSet];
    for (const tenantId of due) {
      if (stopping()) break;
      try {
        read += await deps.scope.outside(() => decideTenant(tenantId, stopping));
      } catch (e) {
        log.warn({ err: e, tenant_id: tenantId }, 'automation: deciding failed; will retry');
      }
    }
    return read;
  }

  /** A saved reply's text for the conversation, as the render route gives it (no member: a rule sends it). */
  async function replyBody(tenantId: string, savedReplyId: string, conversationId: string): Promise<string | null> {
    const reply = await findSavedReply(db, tenantId, savedReplyId);
    const conversation = await findConversation(db, tenantId, conversationId);
    if (!reply || !conversation) return null;
    return (await renderForConversation(db, tenantId, reply, conversation, null)).body;
  }

  /** A call: the event (personal fields sealed) and the conversation as its answer shows it, sealed likewise. */
  async function call(a: ClaimedAction, url: string): Promise<void> {
    const [event] = await store.readTenant(a.tenant_id, a.seq - 1, 1, { sealed: true });
    const conversation = await deps.scope.run(a.tenant_id, () => answers.one(deps.db, a.tenant_id, a.conversation_id)).catch(() => null);
    const body = {
      type: 'automation_rule.call',
      rule_id: a.rule_id,
      action_index: a.idx,
      event: event ? toEnvelope({ ...event, payload: event.sealed_payload ?? event.payload }) : null,
      conversation,
    };
    const sealed = JSON.stringify(await deps.forgettable.shred(db, a.tenant_id, body));
    const now = clock.now();
    await db.transaction(async (trx) => {
      if (!(await settleAction(trx, a, 'succeeded', now))) return;
      await insertDeliveries(trx, [
        {
          id: deterministicUuid('webhook_delivery', a.tenant_id, 'rule', a.rule_id, String(a.seq), String(a.idx)),
          tenant_id: a.tenant_id,
          target_kind: 'rule',
          target_id: a.rule_id,
          series: 0,
          seq: a.seq,
          event_type: a.event_type,
          url,
          body: sealed,
          created_at: now,
        },
      ]);
      await trx.raw('SELECT pg_notify(?, ?)', [DELIVERIES_CHANNEL, '']);
    });
  }

  /** The action's command, its outcome settled in its transaction (see the header). */
  function settled(a: ClaimedAction, spec: CommandSpec<any, NewEvent>): CommandSpec<any, NewEvent> {
    return {
      ...spec,
      async beside(tx, events, ctx) {
        await spec.beside?.(tx, events, ctx);
        // Stamped now, at the end of the command (its commit follows), not when it began.
        if (events.length && !(await settleAction(tx, a, 'succeeded', clock.now()))) throw new ActionNotPending();
      },
      async replayed(tx, events, ctx) {
        await spec.replayed?.(tx, events, ctx);
        await settleAction(tx, a, 'succeeded', ctx.now);
      },
    };
  }

  async function act(a: ClaimedAction): Promise<void> {
    const now = clock.now();
    try {
      if (a.action.call_url !== undefined) return await call(a, a.action.call_url);
      const author: Author = { type: 'system', id: `rule:${a.rule_id}` };
      const ctx: CommandContext = {
        tenantId: a.tenant_id,
        now,
        actor: { type: 'rule', id: a.rule_id, chain: a.chain },
        // The action's own key: its events' ids are the same on every attempt, so a retry finds what one committed.
        idempotencyKey: `rule:${a.seq}:${a.idx}`,
        ...(a.attempts > 1 ? { resumed: true } : {}),
      };
      const partId = deterministicUuid(a.tenant_id, 'automation', a.rule_id, String(a.seq), String(a.idx));
      const body = a.action.reply_with !== undefined ? await replyBody(a.tenant_id, a.action.reply_with, a.conversation_id) : undefined;
      if (body === null) {
        await settleAction(db, a, 'failed', now, { code: 'not_found', message: 'The saved reply (or the conversation) no longer exists.' });
        return;
      }
      const spec = actionSpec(a.action, { conversationId: a.conversation_id, partId, author, now, replyBody: body });
      const { events } = await deps.scope.run(a.tenant_id, () => shell.execute(ctx, settled(a, spec)));
      // Nothing to change (already tagged, an attribute already so): skipped; a change was settled with its commit.
      if (events.length === 0) await settleAction(db, a, 'skipped', now);
    } catch (e) {
      if (e instanceof ActionNotPending) return;
      // A refusal is the action's outcome; a conflict with a concurrent write is not (the next attempt decides again).
      if (e instanceof AppError && e.status < 500 && e.code !== 'concurrent_modification') {
        if (ALREADY_SO.has(e.code)) await settleAction(db, a, 'skipped', now);
        else await settleAction(db, a, 'failed', now, { code: e.code, message: e.message });
        return;
      }
      if (a.attempts < MAX_ATTEMPTS) {
        log.warn({ err: e, rule_id: a.rule_id, seq: a.seq, action: a.idx, attempt: a.attempts }, 'automation action failed; will retry');
        await releaseAction(db, a, new Date(now.getTime() + RETRY_BASE_MS * 2 ** (a.attempts - 1))).catch(() => undefined);
        return;
      }
      log.warn({ err: e, rule_id: a.rule_id, seq: a.seq, action: a.idx }, 'automation action failed');
      await settleAction(db, a, 'failed', now, { code: 'internal_error', message: `Gave up after ${a.attempts} attempts.` });
    }
  }

  /**
   * Runs what one claim took: a conversation's actions one after another, in the order claimed (the rules' order, then
   * each rule's), and CONCURRENCY conversations at once, whose commands the workspace's group commit puts in shared
   * transactions. One at a time, the runner kept up only while a command took less than the time between events.
   */
  async function runClaimed(claimed: readonly ClaimedAction[], stopping: () => boolean): Promise<number> {
    const byConversation = new Map<string, ClaimedAction[]>();
    for (const a of claimed) {
      const k = `${a.tenant_id}/${a.conversation_id}`;
      const list = byConversation.get(k);
      if (list) list.push(a);
      else byConversation.set(k, [a]);
    }
    const queue = [...byConversation.values()];
    let done = 0;
    const lane = async () => {
      for (let group = queue.shift(); group; group = queue.shift())
        for (const a of group) {
          // A graceful stop hands back what it claimed at once instead of letting the lease run out.
          if (stopping()) await releaseAction(db, a, clock.now(), true).catch(() => undefined);
          else {
            await deps.scope.outside(() => act(a));
            done++;
          }
        }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, lane));
    return done;
  }

  let prunedAt = 0;

  async function actPass(stopping: () => boolean): Promise<number> {
    let done = 0;
    // The run logs keep RUN_LOG_DAYS of outcomes (the table, and the metrics' scan of it, stay bounded).
    if (clock.now().getTime() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = clock.now().getTime();
      await pruneActions(db, new Date(prunedAt - RUN_LOG_DAYS * 86_400_000)).catch((e) => log.warn({ err: e }, 'automation: pruning run logs failed'));
    }
    for (let i = 0; i < 50 && !stopping(); i++) {
      const claimed = await claimActions(db, clock.now(), config.automationLeaseMs, CLAIM);
      if (claimed.length === 0) break;
      done += await runClaimed(claimed, stopping);
    }
    return done;
  }

  const decider = notifiedWorker(deps, { name: 'automation-decider', channel: EVENTS_CHANNEL, pollMs: config.automationPollMs, pass: decidePass });
  const runner = notifiedWorker(deps, { name: 'automation-runner', channel: AUTOMATION_CHANNEL, pollMs: config.automationPollMs, pass: actPass });
  // This process's commits wake the decider at once (the EventStoreDB store sends no NOTIFY), when a workspace
  // with rules committed; the set is read again at most every ARMED_TTL_MS.
  shell.onCommitted((tenantId) => {
    if (armed?.tenants.has(tenantId)) void decider.tick().catch(() => undefined);
  });
  return { decider, runner };
}
