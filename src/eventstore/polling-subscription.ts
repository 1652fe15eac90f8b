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
): Subscription {
  let stopped = false;
  let wake: (() => void) | null = null;
  let pending = false;
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
      const t = setTimeout(resolve, POLL_MS);
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
        const { events, checkpoint } = await store.readAll(after, opts.batchSize ?? 500);
        if (events.length > 0 && checkpoint) {
          await opts.handle(events, checkpoint);
          after = checkpoint;
          continue;
        }
      } catch (e) {
        opts.onError?.(e);
      }
      if (!stopped) await sleep();
      wake = null;
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      (await unlisten)?.();
      await loop;
    },
  };
}
