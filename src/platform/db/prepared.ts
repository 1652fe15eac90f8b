// Named prepared statements for the statements a process sends again and
// again, chosen by use (as JDBC's prepareThreshold does), with no change to
// the code that builds them (knex query builders, raw SQL).
//
// An unnamed statement is parsed, analysed and planned by Postgres on every
// execution. Profiled under the write load (bench/results/profile-12.md),
// planning alone was as costly as executing for the hot lookups (a channel
// or contact by key: 0.11 ms to plan, 0.03 ms to run) and a third of the
// append statement. A named statement is parsed once per connection, and
// after five executions Postgres keeps a generic plan when it is no worse.
//
// Which statements: a parameterised statement (simple-protocol ones such as
// BEGIN, COMMIT and migrations are never named) whose exact text has been sent
// PREPARE_AFTER times by this process, up to MAX_NAMED texts; later texts stay
// unnamed (each connection holds at most that many plans). Names are never
// reused for another text.
//
// A schema change under a running process (a migration that adds a column)
// makes Postgres refuse a prepared `SELECT *` whose result type changed
// ("cached plan must not change result type", 0A000): that statement fails
// once, and its text is sent unnamed from then on. Row-level security is
// safe: Postgres re-plans a cached statement when the role changes, and the
// policies read app.tenant_id when they run, not when they are planned.
// PREPARED_STATEMENTS=off turns all of it off (e.g. behind a pooler in
// transaction mode that cannot carry named statements).
//
// A generic plan is costed once, with the table as it was then, and kept for
// the connection's life (until an ANALYZE); and behind row-level security it
// is costed for the workspace the connection served when it was made (Postgres
// reads app.tenant_id to estimate). A statement that reads a batch of rows by
// their keys, planned for a workspace that looked tiny, took an index on the
// workspace alone and filtered the keys: every group then read the whole
// workspace of whoever sent it next, however many keys it named
// (bench/results/profile-12.md, ninth round). Such texts start with
// PLANNED_PER_CALL and are never named: Postgres plans them on every execution,
// for their workspace, their number of keys and the table's current size. The
// planning is paid once per batch, not per key.

import { interceptQuery } from './driver-hooks.js';

/** Marks a statement to be planned on every execution (see above). */
export const PLANNED_PER_CALL = '/* planned per call */ ';

/**
 * The workspace's id as a parameter Postgres plans as an average workspace's: a
 * subquery it runs once per statement and cannot read while planning (the wall's
 * policy reads the setting the same way, migration 060). Given as a constant, a
 * workspace outside the statistics' most common values (new, or grown since the
 * last ANALYZE) is estimated at one row, and a look-up by key then reads the
 * whole workspace through another index on it (docs/performance.md, "Reads by
 * key behind the wall"). For look-ups by key in statements planned per call.
 */
export const WORKSPACE_PARAM = '(SELECT ?::uuid)';

/**
 * The batch sizes a read of a few rows by their primary keys is padded to (with NULL keys, which match nothing),
 * so that each size is one text and keeps one generic plan: a union of one-row probes, each by the whole primary
 * key. A probe by the whole key is planned as that key's index whatever the workspace held when the plan was made
 * (test/platform/planned-per-call.e2e.test.ts), where a plan for `id = ANY(…)` made while a workspace held three
 * rows took an index on the workspace and filtered the ids in it; but not while the table has no statistics at all
 * (a new database before autovacuum's first visit), when every index on the workspace costs as much as the key's
 * and the newest wins (docs/performance.md, "Kept plans in a database's first minute"). Up to the largest size a batch saves its planning
 * (most of what Postgres spent on a group's answers: docs/performance.md); a larger batch is planned per call, its
 * planning shared by as many rows.
 */
export const KEY_SLOTS = [2, 4, 8, 16] as const;

/** The padded size for `n` keys (2 and more), or null past the largest (plan that read per call). */
export function keySlots(n: number): number | null {
  for (const size of KEY_SLOTS) if (n <= size) return size;
  return null;
}

/** `keys` padded with nulls (keys that match nothing) to `slots` of them. */
export const padKeys = <K>(keys: readonly K[], slots: number): (K | null)[] => [...keys, ...Array.from({ length: slots - keys.length }, () => null)];

/**
 * The rows of `table` by the whole key (`tenant_id` and `column`) for each of `keys`, as a union of probes padded to
 * `slots` (keySlots) with NULL keys: a subquery's text (`SELECT *` of each) and its bindings, in order.
 */
export function keyProbes(
  table: string,
  column: string,
  tenantId: string,
  keys: readonly string[],
  slots: number,
): { sql: string; bindings: (string | null)[] } {
  const padded = padKeys(keys, slots);
  return {
    sql: padded.map(() => `SELECT * FROM ${table} WHERE tenant_id = ? AND ${column} = ?::uuid`).join(' UNION ALL '),
    bindings: padded.flatMap((key) => [tenantId, key]),
  };
}

export const PREPARE_AFTER = 2;
export const MAX_NAMED = 100;
/** Texts counted before being named; the count starts over when full (one-off texts never fill it for good). */
const MAX_COUNTED = 5000;

export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private readonly refused = new Set<string>();
  private next = 0;

  constructor(
    private readonly after = PREPARE_AFTER,
    private readonly max = MAX_NAMED,
  ) {}

  /** The name to send `text` under, or undefined to send it unnamed. */
  nameFor(text: string): string | undefined {
    const named = this.names.get(text);
    if (named !== undefined || this.names.size >= this.max) return named;
    if (text.startsWith(PLANNED_PER_CALL)) return undefined;
    if (this.refused.has(text)) return undefined;
    const n = (this.counts.get(text) ?? 0) + 1;
    if (n < this.after) {
      if (this.counts.size >= MAX_COUNTED) this.counts.clear();
      this.counts.set(text, n);
      return undefined;
    }
    this.counts.delete(text);
    const name = `cs_${++this.next}`;
    this.names.set(text, name);
    return name;
  }

  /** Never name `text` again (its plan was refused after a schema change). */
  refuse(text: string): void {
    this.names.delete(text);
    this.refused.add(text);
  }

  get size(): number {
    return this.names.size;
  }
}

interface QueryConfig {
  text?: unknown;
  name?: unknown;
  values?: unknown;
}

type Callback = (err: Error | null, res: unknown) => void;

interface Queryable {
  query(...args: unknown[]): unknown;
}

/** "cached plan must not change result type": the named statement is stale after a schema change. */
export const isStalePlan = (e: unknown): boolean => (e as { code?: string } | null)?.code === '0A000' && /cached plan/.test((e as Error).message ?? '');

/**
 * Makes `conn` send hot statements named (see above). Only the object form
 * with parameters is touched (what knex sends); string queries pass as they are.
 */
export function prepareHotStatements(conn: Queryable, names: StatementNames): void {
  interceptQuery(conn, (query) => (...args: unknown[]) => {
    const config = args[0] as QueryConfig | null;
    if (
      config === null ||
      typeof config !== 'object' ||
      typeof config.text !== 'string' ||
      config.name !== undefined ||
      !Array.isArray(config.values) ||
      config.values.length === 0 ||
      typeof (config as { submit?: unknown }).submit === 'function'
    ) {
      return query(...args);
    }
    const text = config.text;
    const name = names.nameFor(text);
    if (name === undefined) return query(...args);
    const named = { ...config, name };
    const cb = args.find((a): a is Callback => typeof a === 'function');
    if (cb) {
      return query(named, (err: Error | null, res: unknown) => {
        if (err && isStalePlan(err)) names.refuse(text);
        cb(err, res);
      });
    }
    return (query(named) as Promise<unknown>).catch((err: unknown) => {
      if (isStalePlan(err)) names.refuse(text);
      throw err;
    });
  });
}
