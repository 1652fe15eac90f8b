// Idempotency-Key handling (spec 3.2, 4.2, design invariant 8).
//
// The reservation is committed by its own statement before the work starts, so
// a concurrent retry sees it. It names its holder (a token of the request) and
// carries a short lease that the holding process renews while the request runs:
// a process that crashed frees its keys within a lease (LEASE_MS), not 24
// hours. A 5xx releases the key; any other answer is stored and replayed byte
// for byte. A release the database cannot take (it went away mid-request: the
// request is answered 503) is kept and retried until the database is back, so
// the key is free again within moments of it coming back, not after the lease;
// a release names its holder, so a late one never frees the next request's
// reservation. See docs/architecture.md, "A database outage and the keys". Stored answers are sealed: a creation answer may carry a
// secret shown once (an API key, an endpoint secret), which must not sit in
// plaintext at rest for 24 hours. Inside that seal, personal fields (a
// contact's name, a message body) are sealed again under their subjects' data
// keys (src/eventstore/forgettable.ts), so an erasure forgets stored answers
// too: a replay after it answers with those fields null.
//
// The answer of a command (a write routed through answerCommand) is stored in
// the command's own transaction: the events and the key's answer commit
// together or not at all, so a crash after the commit leaves an answer to
// replay, not a reservation whose retry must look for what was written.
// Refusals and answers of anything else are stored right after the work, as
// below; a crash before that is what the lease and the resumed lookup cover.
//
// Reservations and completions are batched (platform/db/batched.ts): those made
// while one such statement runs go together in the next, each still committed
// before its caller goes on. One batch takes every workspace's, on the owner
// pool: the statements name each row's tenant themselves, as the authentication
// lookup does, so they need no tenant role. Batched per workspace on the
// requests' pool, with many busy workspaces, that was two statements and about
// one role switch per write.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Request } from 'express';
import type { Clock } from '../../platform/clock.js';
import type { Sealer } from '../../platform/crypto/seal.js';
import { SEALED_VALUE, type Forgettable } from '../../eventstore/forgettable.js';
import { AppError, Conflict, Unprocessable, BadRequest } from '../../platform/errors.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';
import { seededIds, type Ids } from '../../platform/ids.js';
import type { Answer, AnswerSink, WriteSession } from '../answer.js';
import { contextOf, type Principal } from '../context.js';
import { batched, batchedOn } from '../../platform/db/batched.js';
import type { Db } from '../../platform/db/database.js';
import type { TenantScope } from '../../platform/db/tenant-scope.js';

export const KEY_MAX_LENGTH = 255;
/** A reservation's lease: how long a key stays held after its process last renewed it (a crashed process's keys free after this). */
export const LEASE_MS = 15_000;
/** The holding process renews its reservations this often: a third of the lease, so two renewals may fail before it runs out. */
export const RENEW_EVERY_MS = 5_000;
/** A release the database refused is tried again this often, until it goes through. */
export const RELEASE_RETRY_MS = 500;
export const RETENTION_MS = 24 * 3600_000;
/** Printable ASCII; a space may sit inside the key, never at either end. */
export const KEY_FORMAT = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export interface StoredAnswer extends Answer {
  raw?: string;
  replayed?: boolean;
}

interface Row {
  fingerprint: string;
  status: 'in_flight' | 'completed' | 'released';
  locked_until: Date;
  response_status: number | null;
  response_body: string | null;
  response_headers: Record<string, string> | null;
}

export function fingerprint(req: Request): string {
  const raw = contextOf(req).rawBody ?? Buffer.alloc(0);
  return sha256Hex(Buffer.concat([Buffer.from(`${req.method}\n${req.baseUrl}${req.path}\n`, 'utf8'), raw]));
}

/** Renders a typed error as the answer a replay must repeat. */
export function errorAnswer(e: AppError, requestId: string): StoredAnswer {
  return { status: e.status, body: { type: 'error.list', request_id: requestId, errors: e.entries() }, headers: e.headers };
}

/** A reservation this process made or took over: its row, and the token that names it as ours. */
interface Hold {
  tenant_id: string;
  caller_id: string;
  key: string;
  holder: string;
}

interface Reservation extends Hold {
  fingerprint: string;
  locked_until: Date;
  created_at: Date;
}

interface Completion {
  tenant_id: string;
  caller_id: string;
  key: string;
  status: number;
  body: string | null;
  headers: Record<string, string>;
  at: Date;
}

/** The key of a (tenant, caller, key) triple, for telling two rows of one batch apart. */
const rowKey = (r: { tenant_id: string; caller_id: string; key: string }): string => `${r.tenant_id}\u0000${r.caller_id}\u0000${r.key}`;

/** The batch key: one batch for every workspace's rows. */
const ALL_WORKSPACES = '*';

/** At most this many answers per completion statement. */
const MAX_COMPLETIONS = 16;

export class Idempotency {
  /** Inserts reservations; true for each that was new (its key was free). */
  private readonly reserve = batched<Reservation, boolean>(
    (_, rows) =>
      this.onOwnerPool(async (db) => {
        const res = await db.raw(
          `INSERT INTO idempotency_keys (tenant_id, caller_id, key, holder, fingerprint, status, locked_until, created_at)
           SELECT x.tenant_id, x.caller_id, x.key, x.holder, x.fingerprint, 'in_flight', x.locked_until, x.created_at
             FROM unnest(?::uuid[], ?::text[], ?::text[], ?::uuid[], ?::text[], ?::timestamptz[], ?::timestamptz[]) AS x(tenant_id, caller_id, key, holder, fingerprint, locked_until, created_at)
           ON CONFLICT (tenant_id, caller_id, key) DO NOTHING
           RETURNING tenant_id, caller_id, key`,
          [
            rows.map((r) => r.tenant_id),
            rows.map((r) => r.caller_id),
            rows.map((r) => r.key),
            rows.map((r) => r.holder),
            rows.map((r) => r.fingerprint),
            rows.map((r) => r.locked_until),
            rows.map((r) => r.created_at),
          ] as unknown as Knex.RawBinding[],
        );
        const taken = new Set((res.rows as { tenant_id: string; caller_id: string; key: string }[]).map(rowKey));
        return rows.map((r) => taken.has(rowKey(r)));
      }),
    // Two requests with one key in one statement: only one row goes in, and RETURNING could not say whose.
    { identity: rowKey },
  );

  /** Stores the answers of completed requests that were not stored with a command (an error fails the callers). */
  private readonly complete = batched<Completion, void>(
    (_, rows) =>
      this.onOwnerPool(async (db) => {
        await storeCompletions(db, rows, false);
        return rows.map(() => undefined);
      }),
    { max: MAX_COMPLETIONS },
  );

  /**
   * Stores answers inside command transactions (the AnswerSink a keyed write gets): the answers a
   * group commit answers together go as one statement in its transaction.
   * Whether they were stored: a failure is undone alone and the command still commits.
   */
  private readonly completeIn = batchedOn<Db, Completion, boolean>(
    async (db, _, rows) => {
      const ok = await storeCompletions(db, rows, true);
      return rows.map(() => ok);
    },
    { max: MAX_COMPLETIONS, identity: rowKey, gather: 'microtask' },
  );

  /** Reservations this process holds while their requests run: renewed every RENEW_EVERY_MS. */
  private readonly held = new Map<string, Hold>();
  private renewing: NodeJS.Timeout | null = null;
  /** Releases the database could not take (it was unreachable): tried again every RELEASE_RETRY_MS. */
  private readonly unreleased = new Map<string, Hold>();
  private releasing: NodeJS.Timeout | null = null;

  /**
   * `db`: the requests' pool (replays, releases, and the data keys of stored
   * answers, in the caller's tenant scope). `owner`: the owner pool and the
   * scope to leave for it, where reservations and completions of all
   * workspaces are batched together (see above). `ids`: what a write without
   * a key mints its ids with.
   */
  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
    private readonly forgettable: Forgettable,
    private readonly owner: { db: Knex; scope: TenantScope },
    private readonly ids: Ids,
  ) {}

  /** The write session of a request without an Idempotency-Key: the service's ids, no answer sink. */
  unkeyed(): WriteSession {
    return { ids: this.ids, answers: null, resumed: false };
  }

  private onOwnerPool<T>(fn: (db: Knex) => Promise<T>): Promise<T> {
    return this.owner.scope.outside(() => fn(this.owner.db));
  }

  // The sealed answer opens only for the same tenant, caller and key.
  private seal(scope: Record<string, string>, raw: string): string {
    return this.sealer.seal('idempotency', scope.tenant_id!, `${scope.caller_id}\u0000${scope.key}`, raw);
  }

  private open(scope: Record<string, string>, sealed: string): string {
    return this.sealer.open('idempotency', scope.tenant_id!, `${scope.caller_id}\u0000${scope.key}`, sealed);
  }

  async run(req: Request, principal: Principal, work: (write: WriteSession) => Promise<Answer>): Promise<StoredAnswer> {
    const key = req.get('idempotency-key');
    if (key === undefined) return work(this.unkeyed());
    if (key.length === 0 || key.length > KEY_MAX_LENGTH || !KEY_FORMAT.test(key)) {
      throw new BadRequest(
        'invalid_idempotency_key',
        `Idempotency-Key must be 1 to ${KEY_MAX_LENGTH} printable ASCII characters (spaces only inside).`,
        'Idempotency-Key',
      );
    }
    const scope = { tenant_id: principal.tenantId, caller_id: principal.callerId, key };
    const hold: Hold = { ...scope, holder: randomUUID() };
    const fp = fingerprint(req);
    const now = this.clock.now();
    const lease = new Date(now.getTime() + LEASE_MS);

    let reserved: boolean;
    let resumed = false;
    try {
      reserved = await this.reserve(ALL_WORKSPACES, { ...hold, fingerprint: fp, locked_until: lease, created_at: now });
    } catch (e) {
      // The insert may have committed before the connection broke: whatever row names us is released once the database is back.
      this.releaseLater(hold);
      throw e;
    }
    if (!reserved) {
      const replay = await this.existing(scope, hold, fp, now, lease);
      if (replay) return replay;
      // We took over a released reservation or one whose lease ran out: its request may have committed first.
      resumed = true;
    }
    return this.perform(req, scope, hold, resumed, work);
  }

  /** A stored answer to replay, or null when we took over an expired lease and should run the work. */
  private async existing(scope: Record<string, string>, hold: Hold, fp: string, now: Date, lease: Date): Promise<StoredAnswer | null> {
    const row = (await this.db('idempotency_keys').where(scope).first()) as Row | undefined;
    if (!row) throw inFlight(); // released between our insert and read: the caller simply retries
    if (row.status === 'completed') {
      if (row.fingerprint !== fp) {
        throw new Unprocessable('idempotency_key_reused', 'This Idempotency-Key was already used with a different request (method, path or body).');
      }
      const raw = row.response_body ? await this.reveal(scope, this.open(scope, row.response_body)) : undefined;
      return { status: row.response_status!, raw, headers: row.response_headers ?? {}, replayed: true };
    }
    if (row.status === 'in_flight' && row.locked_until.getTime() > now.getTime()) throw inFlight();
    // The first request answered 5xx (released) or its lease ran out (it crashed or never finished): take the key over.
    let took: number;
    try {
      took = await this.db('idempotency_keys')
        .where(scope)
        .andWhere((q) => q.where('status', 'released').orWhere((q2) => q2.where('status', 'in_flight').andWhere('locked_until', '<=', now)))
        .update({ status: 'in_flight', holder: hold.holder, fingerprint: fp, locked_until: lease, created_at: now });
    } catch (e) {
      this.releaseLater(hold); // the takeover may have committed: as for a reservation
      throw e;
    }
    if (took === 0) throw inFlight();
    return null;
  }

  private async perform(
    req: Request,
    scope: Record<string, string>,
    hold: Hold,
    resumed: boolean,
    work: (write: WriteSession) => Promise<Answer>,
  ): Promise<StoredAnswer> {
    this.hold(hold);
    try {
      return await this.performHeld(req, scope, hold, resumed, work);
    } finally {
      this.unhold(hold);
    }
  }

  private async performHeld(
    req: Request,
    scope: Record<string, string>,
    hold: Hold,
    resumed: boolean,
    work: (write: WriteSession) => Promise<Answer>,
  ): Promise<StoredAnswer> {
    let answer: StoredAnswer;
    // The answer goes into the command's transaction through this sink (answerCommand says whether it did).
    const answers: AnswerSink = {
      store: async (db, stored, keys) => this.completeIn(db, ALL_WORKSPACES, await this.completion(db, scope, stored, keys)),
    };
    // Ids minted by the work derive from the key, so a re-run after a lost answer names the same things.
    const ids = seededIds(`${scope.tenant_id}\u0000${scope.caller_id}\u0000${scope.key}`);
    try {
      answer = await work({ ids, answers, resumed });
    } catch (e) {
      // A refusal that says when to try again (Retry-After: a workspace that changed under every attempt, a
      // rate limit) is about that moment, not the request: stored, it would answer every retry of the key.
      // Released like a 5xx, the retry runs the work (and first looks for a commit, as after any release).
      if (!(e instanceof AppError) || e.status >= 500 || e.headers['Retry-After'] !== undefined) {
        await this.release(hold);
        throw e;
      }
      answer = errorAnswer(e, contextOf(req).requestId);
    }
    if (answer.status >= 500) {
      await this.release(hold);
      return answer;
    }
    const { storedWithCommand, ...said } = answer;
    answer = said;
    const raw = answer.body === undefined ? null : JSON.stringify(answer.body);
    // Stored with the command's events already, or now, after the commit (refusals, answers not of a command).
    if (!storedWithCommand) {
      try {
        await this.complete(ALL_WORKSPACES, await this.completion(this.db, scope, answer));
      } catch (e) {
        // The work is done but its answer could not be stored (the database went away): a retry takes the key over and finds it.
        await this.release(hold);
        throw e;
      }
    }
    return { ...answer, raw: raw ?? undefined };
  }

  /** The row that stores an answer: its body with personal fields sealed under their subjects' keys, then sealed whole. */
  private async completion(db: Db, scope: Record<string, string>, answer: Answer, keys?: ReadonlyMap<string, Buffer>): Promise<Completion> {
    const stored = answer.body === undefined ? null : JSON.stringify(await this.forgettable.shred(db, scope.tenant_id!, answer.body, keys));
    return {
      tenant_id: scope.tenant_id!,
      caller_id: scope.caller_id!,
      key: scope.key!,
      status: answer.status,
      body: stored === null ? null : this.seal(scope, stored),
      headers: answer.headers ?? {},
      at: this.clock.now(),
    };
  }

  /** A stored answer with its personal fields opened: the same bytes as the first answer, or null where erased. */
  private async reveal(scope: Record<string, string>, stored: string): Promise<string> {
    if (!stored.includes(`"${SEALED_VALUE}"`)) return stored;
    return JSON.stringify(await this.forgettable.reveal(this.db, scope.tenant_id!, JSON.parse(stored)));
  }

  /**
   * A 5xx frees the key for a retry (spec 3.2). The row stays, marked released,
   * because the work may have committed before the 5xx: the retry that takes it
   * over is told to look for that commit (CommandContext.resumed). Only our own
   * reservation still in flight is released: one whose answer was stored with
   * the command's events (the COMMIT went through and only its acknowledgement
   * was lost) stays completed, and its retry replays that answer.
   *
   * Never throws: when the database cannot take the release (it went away,
   * which is why the request failed), the release is kept and tried again
   * every RELEASE_RETRY_MS until it goes through.
   */
  private async release(hold: Hold): Promise<void> {
    try {
      await this.releaseAll([hold]);
    } catch {
      this.releaseLater(hold);
    }
  }

  private releaseAll(holds: Hold[]): Promise<number> {
    return this.onOwnerPool((db) =>
      db('idempotency_keys')
        .whereIn(
          ['tenant_id', 'caller_id', 'key', 'holder'],
          holds.map((h) => [h.tenant_id, h.caller_id, h.key, h.holder]),
        )
        .andWhere('status', 'in_flight')
        .update({ status: 'released', locked_until: this.clock.now() }),
    );
  }

  private releaseLater(hold: Hold): void {
    this.unreleased.set(`${rowKey(hold)}\u0000${hold.holder}`, hold);
    if (this.releasing) return;
    const retry = async () => {
      const holds = [...this.unreleased.values()].slice(0, 500);
      try {
        await this.releaseAll(holds);
        for (const h of holds) this.unreleased.delete(`${rowKey(h)}\u0000${h.holder}`);
      } catch {
        /* still unreachable: next round */
      }
      this.releasing = this.unreleased.size > 0 ? setTimeout(() => void retry(), RELEASE_RETRY_MS).unref() : null;
    };
    this.releasing = setTimeout(() => void retry(), RELEASE_RETRY_MS).unref();
  }

  /** Releases waiting for the database (observability and tests). */
  pendingReleases(): number {
    return this.unreleased.size;
  }

  private hold(hold: Hold): void {
    this.held.set(rowKey(hold), hold);
    this.renewing ??= setInterval(() => void this.renew(), RENEW_EVERY_MS).unref();
  }

  private unhold(hold: Hold): void {
    if (this.held.get(rowKey(hold))?.holder === hold.holder) this.held.delete(rowKey(hold));
    if (this.held.size === 0 && this.renewing) {
      clearInterval(this.renewing);
      this.renewing = null;
    }
  }

  /** Extends the lease of every reservation this process still holds (one statement per 500; a failure waits for the next round). */
  private async renew(): Promise<void> {
    const holds = [...this.held.values()];
    const until = new Date(this.clock.now().getTime() + LEASE_MS);
    for (let i = 0; i < holds.length; i += 500) {
      const part = holds.slice(i, i + 500);
      await this.onOwnerPool((db) =>
        db('idempotency_keys')
          .whereIn(
            ['tenant_id', 'caller_id', 'key', 'holder'],
            part.map((h) => [h.tenant_id, h.caller_id, h.key, h.holder]),
          )
          .andWhere('status', 'in_flight')
          .update({ locked_until: until }),
      ).catch(() => undefined);
    }
  }

  /** Reaps rows 24 h after completion, and abandoned reservations 24 h after their lease ended. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - RETENTION_MS);
    return this.db('idempotency_keys')
      .where((q) => q.where('status', 'completed').andWhere('completed_at', '<', cutoff))
      .orWhere((q) => q.whereIn('status', ['in_flight', 'released']).andWhere('locked_until', '<', cutoff))
      .del();
  }
}

/** Marks requests completed with their answers (migration 028); `quiet`: a failure answers false instead of throwing. */
async function storeCompletions(db: Db, rows: Completion[], quiet: boolean): Promise<boolean> {
  const res = await db.raw('SELECT idempotency_complete(?::uuid[], ?::text[], ?::text[], ?::int[], ?::text[], ?::jsonb[], ?::timestamptz[], ?) AS ok', [
    rows.map((r) => r.tenant_id),
    rows.map((r) => r.caller_id),
    rows.map((r) => r.key),
    rows.map((r) => r.status),
    rows.map((r) => r.body),
    rows.map((r) => JSON.stringify(r.headers)),
    rows.map((r) => r.at),
    quiet,
  ] as unknown as Knex.RawBinding[]);
  return (res.rows as { ok: boolean }[])[0]?.ok === true;
}

function inFlight(): Conflict {
  return new Conflict('idempotency_key_in_flight', 'A request with this Idempotency-Key is still being processed; retry shortly.', { 'Retry-After': '1' });
}
