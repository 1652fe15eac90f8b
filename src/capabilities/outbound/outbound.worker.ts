// Sends outbound collections: fires due schedules, then turns pending
// recipients into started conversations, a claim (a batch, under a lease) at a
// time. State lives in Postgres, so a restart loses nothing: a recipient whose
// process died mid-claim is taken over once the lease runs out, and several
// processes share the work (FOR UPDATE SKIP LOCKED). Each recipient is one
// command under its workspace's append lock that starts the conversation (its
// id derived from collection and contact) and marks the recipient sent in one
// transaction, so a retry or a second process cannot start a second one.
// A recipient that fails is marked failed and the others go on. Woken by
// NOTIFY when a collection starts sending, with a poll tick as the safety net.
import type { CoreDeps, Worker } from '../capability.js';
import { notifiedWorker } from '../../platform/worker.js';
import type { CommandContext } from '../../commands/command.js';
import { AppError } from '../../platform/errors.js';
import { completeIfDone, deliverRecipient, fireSchedule, giveUpRecipient } from './outbound.commands.js';
import { claimRecipients, dueSchedules, finishedSending, OUTBOUND_CHANNEL, release, settle, type ClaimedRecipient } from './outbound.repo.js';

/** Attempts before a recipient whose start keeps failing (a database error, not a decision) is marked failed. */
export const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 5_000;
/** Claims one pass takes before it yields (the poll tick comes back for more). */
const CLAIMS_PER_PASS = 20;

export interface OutboundWorker extends Worker {
  /** One pass: fires due schedules, delivers claimed recipients, completes finished collections; returns how many recipients got an outcome. */
  tick(): Promise<number>;
}

export function outboundWorker(deps: CoreDeps): OutboundWorker {
  const { db, shell, clock, log, config } = deps;

  const ctxOf = (tenantId: string): CommandContext => ({ tenantId, now: clock.now(), actor: { type: 'system', id: 'outbound' } });
  const run = <T>(tenantId: string, f: () => Promise<T>) => deps.scope.run(tenantId, f);
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function deliver(r: ClaimedRecipient): Promise<boolean> {
    const ids = { collectionId: r.collection_id, contactId: r.contact_id };
    try {
      const { events } = await run(r.tenant_id, () => shell.execute(ctxOf(r.tenant_id), deliverRecipient(ids)));
      await settle(db, r).catch(() => undefined);
      return events.length > 0;
    } catch (e) {
      // A refusal (the start was refused: the contact or channel changed under us) is this recipient's outcome;
      // anything else (the database) is retried a few times before it is.
      const refused = e instanceof AppError;
      if (!refused && r.attempts < MAX_ATTEMPTS) {
        log.warn({ err: e, collection_id: r.collection_id, contact_id: r.contact_id, attempt: r.attempts }, 'outbound recipient attempt failed; will retry');
        await release(db, r, new Date(clock.now().getTime() + RETRY_BASE_MS * 2 ** (r.attempts - 1))).catch(() => undefined);
        return false;
      }
      const message = refused ? `${(e as AppError).code}: ${(e as AppError).message}` : `Gave up after ${r.attempts} attempts.`;
      log.warn({ err: e, collection_id: r.collection_id, contact_id: r.contact_id }, 'outbound recipient failed');
      await run(r.tenant_id, () => shell.execute(ctxOf(r.tenant_id), giveUpRecipient({ ...ids, message }))).catch((err) =>
        log.warn({ err, collection_id: r.collection_id }, 'could not record the failed outbound recipient'),
      );
      await settle(db, r).catch(() => undefined);
      return true;
    }
  }

  async function pass(stopping: () => boolean): Promise<number> {
    for (const s of await dueSchedules(db, clock.now(), 20)) {
      await run(s.tenant_id, () => shell.execute(ctxOf(s.tenant_id), fireSchedule(s.id))).catch((e) =>
        log.warn({ err: e, collection_id: s.id }, 'outbound schedule could not fire'),
      );
    }
    let done = 0;
    for (let i = 0; i < CLAIMS_PER_PASS && !stopping(); i++) {
      const claimed = await claimRecipients(db, clock.now(), config.outboundLeaseMs, config.outboundBatch);
      if (claimed.length === 0) break;
      for (const [k, r] of claimed.entries()) {
        if (stopping()) {
          // A graceful stop hands what it claimed back at once instead of letting the lease run out.
          await Promise.all(claimed.slice(k).map((x) => release(db, x, clock.now()))).catch(() => undefined);
          break;
        }
        if (await deliver(r)) done++;
        if (config.outboundIntervalMs > 0) await pause(config.outboundIntervalMs);
      }
    }
    for (const c of await finishedSending(db, 20)) {
      await run(c.tenant_id, () => shell.execute(ctxOf(c.tenant_id), completeIfDone(c.id))).catch((e) =>
        log.warn({ err: e, collection_id: c.id }, 'outbound completion failed'),
      );
    }
    return done;
  }

  return notifiedWorker(deps, { name: 'outbound', channel: OUTBOUND_CHANNEL, pollMs: config.outboundPollMs, pass });
}
