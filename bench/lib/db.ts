// Where the bench's data lives: the embedded Postgres in a scratch folder
// (bench/.data by default, reused across runs; every run starts from fresh
// databases), or the server of DATABASE_URL. The service scenarios use the
// main database; the store scenarios (append, rebuild) get scratch databases
// of their own beside it, so a rebuild never replays what other scenarios
// wrote and never truncates the service's read models.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createDb, migrate } from '../../src/platform/db/database.js';
import { startEmbeddedPostgres, type EmbeddedCluster } from '../../src/platform/db/embedded-postgres.js';

export interface BenchDatabases {
  source: 'embedded' | 'DATABASE_URL';
  mainUrl: string;
  /**
   * A fresh database beside the main one, migrated by this checkout (unless `empty`: for another checkout's service,
   * which migrates its own at start-up); null (with the reason) when the server refuses.
   */
  scratch(name: string, opts?: { empty?: boolean }): Promise<{ url: string; drop(): Promise<void> } | { url: null; reason: string }>;
  postgresVersion(): Promise<string>;
  /** pid of the embedded cluster's postmaster (null with DATABASE_URL) */
  postmasterPid: number | null;
  close(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function onServer<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function recreate(adminUrl: string, name: string): Promise<void> {
  await onServer(adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}`);
  });
}

async function migrated(url: string): Promise<void> {
  const db = createDb(url, { max: 2 });
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
}

export async function openDatabases(opts: { dataDir: string; keep: boolean; log: (m: string) => void }): Promise<BenchDatabases> {
  const given = process.env.DATABASE_URL?.trim();
  let cluster: EmbeddedCluster | null = null;
  let adminUrl: string;
  let mainUrl: string;
  let mainName: string;
  if (given) {
    mainUrl = given;
    adminUrl = given;
    mainName = decodeURIComponent(new URL(given).pathname.slice(1)) || 'postgres';
  } else {
    cluster = await startEmbeddedPostgres({ dataDir: opts.dataDir, adoptOrphans: true, log: opts.log });
    adminUrl = cluster.url('postgres');
    mainName = 'bench_main';
    await recreate(adminUrl, mainName);
    mainUrl = cluster.url(mainName);
  }
  const created: string[] = cluster ? [mainName] : [];
  /** Scratch databases go as soon as their scenario is done (unless kept), so later scenarios run on a lean cluster. */
  const drop = async (db: string) => {
    const i = created.indexOf(db);
    if (i < 0 || opts.keep) return;
    created.splice(i, 1);
    await onServer(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(db)} WITH (FORCE)`)).catch((e) =>
      opts.log(`could not drop ${db}: ${(e as Error).message}`),
    );
  };
  return {
    source: given ? 'DATABASE_URL' : 'embedded',
    mainUrl,
    postmasterPid: cluster ? Number(readFileSync(path.join(opts.dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]) || null : null,
    async scratch(name, scratchOpts) {
      const db = `${mainName}_${name}`.slice(0, 63);
      try {
        await recreate(adminUrl, db);
      } catch (e) {
        return { url: null, reason: `cannot create a scratch database "${db}" on this server: ${(e as Error).message}` };
      }
      created.push(db);
      const url = withDatabase(adminUrl, db);
      if (!scratchOpts?.empty) await migrated(url);
      return { url, drop: () => drop(db) };
    },
    postgresVersion: () => onServer(mainUrl, async (c) => String((await c.query('SELECT version() AS v')).rows[0].v)),
    async close() {
      for (const db of [...created]) await drop(db);
      await cluster?.stop();
    },
  };
}
