// Builds queued exports, one at a time per process, and deletes expired files.
// State lives in Postgres, so a restart loses nothing: a queued export waits
// for any process's worker, and a running one whose process died is taken over
// once its lease runs out (claims use FOR UPDATE SKIP LOCKED, so processes
// share the work). Woken by NOTIFY when an export is requested, with a poll tick
// as the safety net. The claim crosses workspaces (the owner role); each build
// runs in its workspace's tenant scope.
import type { CoreDeps, Worker } from '../capability.js';
import { coalescing } from '../../platform/worker.js';
import { buildDocument, openedSize, sealDocument } from './exports.document.js';
import { claimNext, complete, drop, EXPORTS_CHANNEL, expireDue, fail, heartbeat, type Claimed } from './exports.repo.js';
import { ConversationAnswers, exportSources, feedTable, type ExportSources } from './exports.sources.js';

/** How long a claim holds without a heartbeat; a build renews it at every step. */
export const LEASE_MS = 120_000;
/** Attempts before an export is marked failed; retries wait 30 s, 60 s, ... */
export const MAX_ATTEMPTS = 3;
const RETRY_BASE_MS = 30_000;
const POLL_MS = 5_000;
const SWEEP_MS = 60_000;
/** Exports one pass builds before it yields (the poll tick comes back for more). */
const PER_PASS = 20;

export interface ExportsWorker extends Worker {
  /** Claims and builds what is due (up to a pass's worth); returns how many it finished, completed or failed. */
  tick(): Promise<number>;
  /** Expires completed exports whose time is up; returns how many. */
  sweep(): Promise<number>;
  /** Builds one claimed export (tests drive a claim by hand). */
  build(c: Claimed): Promise<'completed' | 'retry' | 'failed' | 'dropped' | 'lost'>;
}

export function exportsWorker(deps: CoreDeps, opts: { sources?: ExportSources } = {}): ExportsWorker {
  const { db, clock, log, forgettable, config } = deps;
  const sources = opts.sources ?? exportSources(ConversationAnswers.of(deps.additions));
  let stopped = true;
  const timers: NodeJS.Timeout[] = [];
  let unlisten: (() => void) | null = null;

  class LeaseLost extends Error {}

  async function build(c: Claimed): Promise<'completed' | 'retry' | 'failed' | 'dropped' | 'lost'> {
    return deps.scope.run(c.tenant_id, async () => {
      try {
        // An erased contact's export must not exist (the erasure deletes its rows; this covers a request that raced it).
        if (await sources.erased(db, c.tenant_id, c.contact_id)) {
          await drop(db, c);
          return 'dropped';
        }
        const doc = await buildDocument({
          db,
          tenantId: c.tenant_id,
          exportId: c.id,
          contactId: c.contact_id,
          now: clock.now(),
          sources,
          feed: feedTable(deps.store.kind),
          progress: async (done) => {
            if (!(await heartbeat(db, c, Math.min(done, 0.99), clock.now(), LEASE_MS))) throw new LeaseLost();
          },
        });
        if (!doc) {
          await fail(db, c, 'The contact no longer exists.', null);
          return 'failed';
        }
        const file = await sealDocument(forgettable, db, c.tenant_id, doc);
        const size = await openedSize(file, (v) => forgettable.reveal(db, c.tenant_id, v));
        return (await complete(db, c, file, size, clock.now(), config.exportTtlHours)) ? 'completed' : 'lost';
      } catch (e) {
        if (e instanceof LeaseLost) return 'lost';
        const last = c.attempts >= MAX_ATTEMPTS;
        log.warn({ err: e, export_id: c.id, tenant_id: c.tenant_id, attempt: c.attempts }, last ? 'export failed' : 'export attempt failed; will retry');
        const retryAt = last ? null : new Date(clock.now().getTime() + RETRY_BASE_MS * 2 ** (c.attempts - 1));
        await fail(db, c, last ? 'The export could not be built; request a new one.' : 'An attempt failed; retrying.', retryAt).catch((err) =>
          log.warn({ err, export_id: c.id }, 'could not record the failed export attempt'),
        );
        return last ? 'failed' : 'retry';
      }
    });
  }

  async function pass(): Promise<number> {
    let finished = 0;
    for (let i = 0; i < PER_PASS; i++) {
      const c = await claimNext(db, clock.now(), LEASE_MS);
      if (!c) break;
      const outcome = await build(c);
      if (outcome === 'completed' || outcome === 'failed') finished++;
    }
    return finished;
  }

  /** One pass at a time per process; a wake-up during a pass makes it run once more. */
  const { tick, idle } = coalescing(pass, () => stopped);

  const sweep = () => expireDue(db, clock.now());

  const background = (what: string, f: () => Promise<unknown>) => () => void f().catch((e) => log.warn({ err: e }, `exports ${what} failed`));

  return {
    name: 'exports',
    tick,
    sweep,
    build,
    async start() {
      stopped = false;
      unlisten = await deps.notifier.listen(EXPORTS_CHANNEL, background('pass', tick)).catch((e) => {
        log.warn({ err: e }, 'exports worker could not LISTEN; polling only');
        return null;
      });
      timers.push(setInterval(background('pass', tick), POLL_MS), setInterval(background('sweep', sweep), SWEEP_MS));
      for (const t of timers) t.unref();
      background('pass', tick)();
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      unlisten?.();
      await idle();
    },
  };
}
