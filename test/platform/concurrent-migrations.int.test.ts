// Several processes starting at once against one empty database (the
// production topology: N API processes and a worker, one Postgres) all migrate
// it. knex creates its bookkeeping tables and lock row without a lock of its
// own, so racing first starts used to fail ("Migration table is already
// locked") or leave two lock rows behind, which fails every later start.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { createDb, migrate } from '../../src/platform/db/database.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { databaseUrl } from '../support/db.js';

const PROCESSES = 6;

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

describe('migrations from several processes at once (Postgres)', function () {
  this.timeout(120_000);
  const names: string[] = [];
  after(async () => {
    for (const n of names) await admin(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
  });

  for (let round = 1; round <= 3; round++) {
    it(`migrates an empty database once when ${PROCESSES} start together (round ${round})`, async () => {
      const name = `t_migrate_race_${randomBytes(3).toString('hex')}`;
      names.push(name);
      await admin(`CREATE DATABASE ${name}`);
      // one knex (pool) per "process", as each service process has its own
      const dbs = Array.from({ length: PROCESSES }, () => createDb(databaseUrl(name), { max: 3 }));
      try {
        const results = await Promise.allSettled(dbs.map((db) => migrate(db)));
        const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => String(r.reason?.message ?? r.reason));
        expect(failed, 'migrations failed in some processes').to.deep.equal([]);
        const db = dbs[0]!;
        const lock = await db('knex_migrations_lock').select('is_locked');
        expect(lock).to.deep.equal([{ is_locked: 0 }]);
        const applied = await db('knex_migrations').orderBy('id').pluck('name');
        expect(applied).to.deep.equal(await migrations.getMigrations([]));
        // and a later start (a restart of any process) still migrates
        await migrate(dbs[1]!);
      } finally {
        await Promise.all(dbs.map((d) => d.destroy()));
      }
    });
  }
});
