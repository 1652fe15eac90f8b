// What a route answers, and what a write's handler is handed to make its answer
// safe to retry: its own module, so that the request context, the route
// definitions and the idempotency layer name them without importing each other.
import type { Db } from '../platform/db/database.js';
import type { Ids } from '../platform/ids.js';

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A body written as it is produced, instead of `body` (a download): text or
   * bytes, written with back-pressure; Content-Type from `headers`, else JSON.
   * GET routes only (Idempotency-Key stores whole bodies). The producer runs
   * after the handler returned: it enters its tenant scope itself.
   */
  stream?: AsyncIterable<string | Buffer>;
  /**
   * Set by answerCommand when this answer was stored as the Idempotency-Key's
   * answer in the transaction that committed the command's events (through the
   * request's AnswerSink): the idempotency layer then has nothing left to store.
   */
  storedWithCommand?: true;
}

/**
 * Where a write stores its answer inside its command's transaction, so the
 * events and the key's answer commit together (src/api/command-context.ts).
 * Whether it was stored: a failure is undone alone, and the command still
 * commits (its answer is then stored after the commit, as any other).
 */
export interface AnswerSink {
  store(db: Db, answer: Answer, keys: ReadonlyMap<string, Buffer>): Promise<boolean>;
}

/**
 * What the idempotency layer hands a write's handler (Call.write), explicitly:
 * with an Idempotency-Key, ids derived from the key (the nth id minted is the
 * same in every run of the request, so a re-run after a lost answer names the
 * same conversation, part or invite as the first) and a sink for the answer;
 * without one, random ids and no sink.
 */
export interface WriteSession {
  ids: Ids;
  answers: AnswerSink | null;
  /** the request took over a released or expired reservation: an earlier attempt may have committed (CommandContext.resumed) */
  resumed: boolean;
}
