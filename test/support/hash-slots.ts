// Holding the service's password-hashing slots from a test (the scheduler's own
// API, src/capabilities/users/hash-lanes.ts): while a test holds them nothing
// derives, so "a sign-in answered while a burst's checks still wait" is a state
// the test sets up and reads (stats().waiting), never a race between requests.
import { hashScheduler } from '../../src/capabilities/users/passwords.js';

export interface Held {
  /** lets the slot go */
  release(): void;
  /** whether the scheduler has given this holder its slot */
  started(): boolean;
  /** settles when the holder has been run and released */
  done: Promise<void>;
}

/** Queues a holder in a lane of its own (`name`); it takes a slot when the scheduler gives it one and keeps it until released. */
export function holdSlot(name: string): Held {
  let release!: () => void;
  let started = false;
  const released = new Promise<void>((r) => (release = r));
  const done = hashScheduler.run(name, () => ((started = true), released));
  return { release, started: () => started, done };
}

export { hashScheduler };
