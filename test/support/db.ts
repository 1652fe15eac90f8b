import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { createDb } from '../../src/platform/db/database.js';
import { checkEventLog } from './event-log-check.js';

export const TEMPLATE_DB = 'cs_test_template';

export interface TestDb {
  db: Knex;
  url: string;
  name: string;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url) throw new Error('TEST_PG_ADMIN_URL is not set: run through mocha so the global fixture starts Postgres');
  return url;
}

export function databaseUrl(name: string): string {
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A fresh, migrated database of its own for one test file. */
/**
 * `checkEvents`: the service writes here, so every appended event is checked
 * against the catalogue before the database goes (see event-log-check.ts).
 */
export async function createTestDb(label: string, pool: { max?: number; checkEvents?: boolean } = {}): Promise<TestDb> {
  const name = `t_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(3).toString('hex')}`;
  await admin(async (c) => {
    // FILE_COPY (Postgres 15 and later): copies the template's files. The default since 15, WAL_LOG, writes the whole
    // template (10 MB) through the WAL, 4 times the time and a gigabyte of WAL over a run of some 150 files.
    const v = Number((await c.query<{ v: string }>('SHOW server_version_num')).rows[0]!.v);
    await c.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}${v >= 150000 ? ' STRATEGY FILE_COPY' : ''}`);
  });
  const url = databaseUrl(name);
  const db = createDb(url, { max: pool.max });
  return {
    db,
    url,
    name,
    drop: async () => {
      if (pool.checkEvents) await checkEventLog(db, label);
      await db.destroy();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
