// Catch-up-then-live over readAll: drain everything after the checkpoint, then
// sleep until a NOTIFY (or a poll tick, the safety net for a lost notification
// or an event held back behind a slow transaction) says there may be more.
import type { PgNotifier } from './pg-notifier.js';
import type { EventStore, SubscribeOptions, Subscription } from './store.port.js';

const POLL_MS = 250;

export function pollingSubscription(
  store: Pick<EventStore, 'readAll'>,
  notifier: PgNotifier | null,
  channel: string,
  opts: SubscribeOptions,
  /** the safety net's period (tests set it past their length, so that every read they count has a cause) */
  pollMs = POLL_MS,
): Subscription {
  let stopped = false;
  let wake: (() => void) | null = null;
  let pending = false;
  // Reads that came back empty (caught up), and who waits for the next ones.
  let caughtUp = 0;
  const waiters: { after: number; resolve: () => void }[] = [];
  const nudge = () => {
    pending = true;
    wake?.();
  };
  const unlisten = notifier?.listen(channel, nudge).catch((e) => {
    opts.onError?.(e);
    return () => undefined;
  });
  const sleep = () =>
    new Promise<void>((resolve) => {
      if (pending) return resolve();
      const t = setTimeout(resolve, pollMs);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });

  const loop = (async () => {
    let after = opts.after;
    while (!stopped) {
      try {
        pending = false;
        const limit = opts.batchSize ?? 500;
        const { events, checkpoint } = await store.readAll(after, limit);
        if (events.length > 0 && checkpoint) {
          await opts.handle(events, checkpoint);
          after = checkpoint;
          // A short page read all there was: what commits later is announced by its NOTIFY (sent after its
          // commit; one that came during the read or the handling makes the sleep below return at once), so
          // another read now would come back empty, one statement an event for nothing. Without a notifier the
          // poll tick is the only wake-up: read on until a page comes back empty.
          if (events.length >= limit || !notifier) continue;
        }
        caughtUp++;
        for (const w of waiters.splice(0)) (caughtUp > w.after ? w.resolve : () => waiters.push(w))();
      } catch (e) {
        opts.onError?.(e);
      }
      if (!stopped) await sleep();
      wake = null;
    }
  })();

  return {
    settled() {
      // A read in progress may have begun before this call: wait for the one after it.
      return new Promise<void>((resolve) => {
        waiters.push({ after: caughtUp + (wake ? 0 : 1), resolve });
        nudge();
      });
    },
    async stop() {
      stopped = true;
      wake?.();
      for (const w of waiters.splice(0)) w.resolve();
      (await unlisten)?.();
      await loop;
    },
  };
}
