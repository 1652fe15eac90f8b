// Mail a request only queues: sent one at a time in the background, in the order
// queued, so a request's answer never waits on the relay (or tells, by taking
// longer, that it sent something). A failure is logged; the person asks again.
import type { Logger } from '../logger.js';
import { MailRefused, type MailMessage, type MailRelay } from './relay.js';

export interface MailQueue {
  /** queues the message; never throws */
  push(message: MailMessage, what: string): void;
  /** resolves once every message queued so far was sent or failed (tests) */
  settled(): Promise<void>;
}

export function mailQueue(relay: MailRelay, log: Logger): MailQueue {
  let tail: Promise<void> = Promise.resolve();
  return {
    push(message, what) {
      tail = tail.then(() =>
        relay.send(message).then(
          () => undefined,
          // The address is personal data and the message carries a credential: neither goes to the log, nor the relay's
          // answer (it often names the recipient). Its code says enough.
          (e: unknown) => log.warn({ relay_code: e instanceof MailRefused ? e.code : null }, `could not send the ${what} mail`),
        ),
      );
    },
    settled: () => tail,
  };
}
