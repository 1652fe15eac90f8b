import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { migrations } from './migrations/index.js';

// int8 columns hold seqs and counts far below 2^53; parse them as numbers.
// (`position` and xid8 are read as text explicitly where they matter.)
pg.types.setTypeParser(20, (v) => Number(v));

/** A handle to run queries on: the pool, or a transaction. */
export type Db = Knex | Knex.Transaction;

export function createDb(url: string, pool: { min?: number; max?: number } = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url, application_name: 'conversation-service' },
    pool: {
      min: pool.min ?? 0,
      max: pool.max ?? 20,
      // An idle-in-transaction session holding an xid stalls every subscription
      // (they wait below the oldest running transaction); never let one linger.
      afterCreate: (conn: pg.Client, done: (err: Error | null, conn: pg.Client) => void) => {
        conn.query("SET idle_in_transaction_session_timeout = '60s'", (err) => done(err ?? null, conn));
      },
    },
    migrations: { migrationSource: migrations, tableName: 'knex_migrations' },
  });
}

export async function migrate(db: Knex): Promise<void> {
  await db.migrate.latest();
}

/** Creates `name` on the server of `adminUrl` if missing. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } catch (e) {
    // Two processes racing to create it: the loser sees a duplicate, which is fine.
    if ((e as { code?: string }).code !== '42P04' && (e as { code?: string }).code !== '23505') throw e;
  } finally {
    await client.end();
  }
}
