// The catch-up loop of the Postgres store's subscriptions (src/eventstore/polling-subscription.ts) over a log in
// memory and a notifier the test rings by hand, with no poll tick within the test: every read it counts was asked
// for by a notification or by settled(). (Against Postgres, a transaction elsewhere in the cluster can hide a commit
// from the read its NOTIFY caused, and only the poll tick finds it then: not a thing to count reads by.)
import { expect } from 'chai';
import type { PgNotifier } from '../../src/eventstore/pg-notifier.js';
import { pollingSubscription } from '../../src/eventstore/polling-subscription.js';
import type { ReadAllResult } from '../../src/eventstore/store.port.js';
import type { StoredEvent } from '../../src/eventstore/envelope.js';
import { eventually } from '../support/events.js';

/** A log in memory, read as readAll reads: after a checkpoint (the position), at most `limit`; every read counted. */
function memoryLog() {
  const events: StoredEvent[] = [];
  const log = {
    events,
    reads: 0,
    append(n: number) {
      for (let i = 0; i < n; i++) {
        const seq = events.length + 1;
        events.push({ seq, position: String(seq), tenant_id: 't', id: `e${seq}`, type: 'test.happened' } as unknown as StoredEvent);
      }
    },
    async readAll(after: string | null, limit: number): Promise<ReadAllResult> {
      log.reads++;
      const page = events.slice(after === null ? 0 : Number(after), (after === null ? 0 : Number(after)) + limit);
      return { events: page, checkpoint: page.length ? page[page.length - 1]!.position : after };
    },
  };
  return log;
}

/** A notifier whose notifications the test sends (`ring`), as the store's NOTIFY after a commit would. */
function handRung() {
  let handler: (payload: string) => void = () => undefined;
  return {
    ring: () => handler(''),
    notifier: {
      listen: async (_channel: string, h: (payload: string) => void) => {
        handler = h;
        return () => undefined;
      },
    } as unknown as PgNotifier,
  };
}

describe('polling subscription: reads', () => {
  it('takes a short page for all there was: the next read waits for a notification, not one more read to find nothing', async () => {
    const log = memoryLog();
    const bell = handRung();
    const seen: StoredEvent[] = [];
    const sub = pollingSubscription(log, bell.notifier, 'events', { after: null, batchSize: 100, handle: async (evs) => void seen.push(...evs) }, 3_600_000);
    try {
      await sub.settled!();
      log.reads = 0;
      for (let i = 0; i < 10; i++) {
        log.append(1);
        bell.ring();
        await eventually(
          () => seen.length,
          (n) => n === i + 1,
        );
      }
      await sub.settled!();
      // One read an event (its notification's) and settled()'s own; reading on to an empty page made it 21.
      expect(log.reads).to.equal(11);
      expect(seen.map((e) => e.seq)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    } finally {
      await sub.stop();
    }
  });

  it('reads on after a full page, and after a notification that came while it read or handled a short one', async () => {
    const log = memoryLog();
    const bell = handRung();
    const seen: StoredEvent[] = [];
    let hold: Promise<void> | null = null;
    let handling: () => void = () => undefined;
    const sub = pollingSubscription(
      log,
      bell.notifier,
      'events',
      {
        after: null,
        batchSize: 4,
        handle: async (evs) => {
          seen.push(...evs);
          handling();
          await hold;
        },
      },
      3_600_000,
    );
    try {
      await sub.settled!();
      log.append(6); // a full page of 4, then a short one of 2: one notification
      bell.ring();
      await eventually(
        () => seen.length,
        (n) => n === 6,
      );
      // A short page held in its handling; meanwhile another event and its notification.
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      const handled = new Promise<void>((resolve) => (handling = resolve));
      log.append(1);
      bell.ring();
      await handled;
      hold = null;
      log.append(1);
      bell.ring();
      release();
      await eventually(
        () => seen.length,
        (n) => n === 8,
      );
      expect(seen.map((e) => e.seq)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
    } finally {
      await sub.stop();
    }
  });

  it('without a notifier, reads on until a page comes back empty (the poll tick is its only wake-up)', async () => {
    const log = memoryLog();
    log.append(3);
    const seen: StoredEvent[] = [];
    const sub = pollingSubscription(log, null, 'events', { after: null, batchSize: 100, handle: async (evs) => void seen.push(...evs) }, 3_600_000);
    try {
      await eventually(
        () => log.reads,
        (n) => n >= 2,
      );
      expect(seen).to.have.length(3);
      expect(log.reads, 'the page, then the empty read').to.equal(2);
    } finally {
      await sub.stop();
    }
  });
});
