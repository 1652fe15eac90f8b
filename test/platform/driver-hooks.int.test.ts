// Each hook of src/platform/db/driver-hooks.ts still takes effect against the
// installed knex, tarn and pg: an upgrade that moves one of these internals
// fails here (the hooks read them defensively, so in production it would only
// go quietly slower or lose affinity). And the versions they were written for
// are the ones package.json pins.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDb } from '../../src/platform/db/database.js';
import {
  acquireRaw,
  aroundAcquire,
  clearTransactionMark,
  discard,
  interceptQuery,
  onServerError,
  poolQueues,
  releaseRaw,
  type RawConnection,
} from '../../src/platform/db/driver-hooks.js';
import { databaseUrl, createTestDb, type TestDb } from '../support/db.js';

const require = createRequire(import.meta.url);

describe('driver hooks (int)', () => {
  let t: TestDb;
  let db: Knex;
  before(async () => {
    t = await createTestDb('driver_hooks');
    db = createDb(databaseUrl(t.name), { max: 2, prepare: false });
  });
  after(async () => {
    await db.destroy();
    await t.drop();
  });

  it('knex and pg are pinned to the exact versions the hooks were written for, and those are installed', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    for (const name of ['knex', 'pg']) {
      expect(pkg.dependencies[name], `${name} in package.json`).to.match(/^\d+\.\d+\.\d+$/);
      expect((require(`${name}/package.json`) as { version: string }).version, `installed ${name}`).to.equal(pkg.dependencies[name]);
    }
  });

  it('acquireRaw and releaseRaw take and give back a pool connection', async () => {
    const conn = await acquireRaw<RawConnection>(db);
    expect(((await conn.query('SELECT 1 AS one')) as { rows: { one: number }[] }).rows[0]!.one).to.equal(1);
    await releaseRaw(db, conn);
    expect(poolQueues<unknown, unknown>(db)!.free!.length).to.equal(1);
  });

  it('aroundAcquire sees every query and transaction take and give back its connection', async () => {
    const other = createDb(databaseUrl(t.name), { max: 2, prepare: false });
    try {
      let acquired = 0;
      let released = 0;
      aroundAcquire<RawConnection>(other, {
        acquire: async (original) => (acquired++, original()),
        release: async (conn, original) => (released++, original(conn)),
      });
      await other.raw('SELECT 1');
      await other.transaction(async (trx) => trx.raw('SELECT 1'));
      expect({ acquired, released }).to.deep.equal({ acquired: 2, released: 2 });
    } finally {
      await other.destroy();
    }
  });

  it("poolQueues reads tarn's idle connections and its waiters", async () => {
    const a = await acquireRaw(db);
    const b = await acquireRaw(db);
    const third = acquireRaw(db); // the pool holds 2: this one waits
    expect(poolQueues<unknown, unknown>(db)!.pendingAcquires!.length).to.equal(1);
    await releaseRaw(db, a);
    const c = await third;
    await releaseRaw(db, b);
    await releaseRaw(db, c);
    const free = poolQueues<RawConnection, unknown>(db)!.free!;
    expect(free.length).to.equal(2);
    expect(free.map((f) => typeof f.resource.query)).to.deep.equal(['function', 'function']);
  });

  it("interceptQuery sees what knex sends on a connection (BEGIN and COMMIT included), and puts pg's query back", async () => {
    const conn = await acquireRaw<RawConnection>(db);
    const seen: string[] = [];
    const restore = interceptQuery(conn, (query) => (...args: unknown[]) => {
      const first = args[0] as string | { text?: string };
      seen.push(typeof first === 'string' ? first : (first.text ?? ''));
      return (query as (...a: unknown[]) => unknown)(...args);
    });
    try {
      await db.transaction(async (trx) => trx.raw('SELECT 2'), { connection: conn });
    } finally {
      restore();
      clearTransactionMark(conn);
    }
    expect(seen.map((s) => s.trim())).to.include.members(['BEGIN;', 'SELECT 2', 'COMMIT;']);
    expect(Object.prototype.hasOwnProperty.call(conn, 'query'), 'the own property is gone again').to.equal(false);
    await releaseRaw(db, conn);
  });

  it('clearTransactionMark removes the transaction id knex leaves on a connection it was given', async () => {
    const conn = await acquireRaw<RawConnection & { __knexTxId?: unknown }>(db);
    await db.transaction(async (trx) => trx.raw('SELECT 1'), { connection: conn });
    expect(conn.__knexTxId, 'knex left its mark').to.not.equal(undefined);
    clearTransactionMark(conn);
    expect(conn.__knexTxId).to.equal(undefined);
    await releaseRaw(db, conn);
  });

  it("onServerError hears the SQLSTATE of a failed statement on pg's connection", async () => {
    const conn = await acquireRaw<RawConnection>(db);
    const query = (sql: string) => conn.query(sql) as Promise<unknown>;
    const codes: string[] = [];
    onServerError(conn, (code) => codes.push(code));
    await query('SELECT 1/0').catch(() => undefined);
    await query('BEGIN READ ONLY');
    await query('CREATE TEMP TABLE nope (x int)').catch(() => undefined);
    await query('ROLLBACK');
    expect(codes).to.deep.equal(['22012', '25006']);
    await releaseRaw(db, conn);
  });

  it('discard makes the pool destroy a connection instead of handing it out again', async () => {
    const quiet = { warn: () => undefined, error: () => undefined, debug: () => undefined };
    const other = createDb(databaseUrl(t.name), { max: 1, prepare: false, log: quiet });
    try {
      const pid = async () => ((await other.raw('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number }).pid;
      const first = await pid();
      expect(await pid(), 'reused while kept').to.equal(first);
      const conn = await acquireRaw<RawConnection>(other);
      discard(conn, 'test');
      await releaseRaw(other, conn);
      expect(await pid(), 'a new session after discard').to.not.equal(first);
    } finally {
      await other.destroy();
    }
  });
});
