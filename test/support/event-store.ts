// Which event store the service and CLI processes a test starts keep their log
// in. By default the Postgres store (nothing to set). With
//   TEST_EVENT_STORE=eventstoredb EVENTSTORE_URL=esdb://127.0.0.1:2113?tls=false
// every service startTestService starts, and every child process given a
// DATABASE_URL through childEnv, keeps its log in that EventStoreDB server
// (docs/eventstoredb.md, "Running the suite on EventStoreDB").
//
// One server serves every file of the run: each test database gets streams of
// its own (EVENTSTORE_STREAM_PREFIX derived from the database's name), so the
// $all subscriptions of one file's service (the catch-up projector, the webhook
// dispatcher), filtered by that prefix, never see another file's events, and
// their checkpoints live in that file's own database.

import type { Knex } from 'knex';
import type { StoredEvent } from '../../src/eventstore/envelope.js';

/** The EventStoreDB server the run's processes use, or null for the Postgres store (the default). */
export function testEventStoreUrl(): string | null {
  const kind = process.env.TEST_EVENT_STORE?.trim() || 'postgres';
  if (kind === 'postgres') return null;
  if (kind !== 'eventstoredb') throw new Error(`TEST_EVENT_STORE must be postgres or eventstoredb, not "${kind}"`);
  const url = process.env.EVENTSTORE_URL?.trim();
  if (!url) throw new Error('TEST_EVENT_STORE=eventstoredb needs EVENTSTORE_URL (esdb://host:port?tls=false)');
  return url;
}

/** The kind of store the run's services keep their log in. */
export function testStoreKind(): 'postgres' | 'eventstoredb' {
  return testEventStoreUrl() ? 'eventstoredb' : 'postgres';
}

/** The stream prefix of the processes that use the database named in `databaseUrl`. */
export function streamPrefixFor(databaseUrl: string): string {
  const name = new URL(databaseUrl).pathname.replace(/^\//, '');
  return `test.${name.replace(/[^A-Za-z0-9_]/g, '_')}-`;
}

/**
 * The service configuration that selects the run's event store for a process on `databaseUrl`:
 * nothing on Postgres; EVENTSTORE_URL and the database's own stream prefix on EventStoreDB.
 */
export function testEventStoreEnv(databaseUrl: string | undefined): Record<string, string> {
  const url = testEventStoreUrl();
  if (!url || !databaseUrl) return {};
  return { EVENTSTORE_URL: url, EVENTSTORE_STREAM_PREFIX: streamPrefixFor(databaseUrl) };
}

/**
 * A workspace's head (its last seq, 0 for none) in the log of the processes on `databaseUrl`, whichever store the run
 * uses: `event_heads` on Postgres, the stream's last revision + 1 on the run's EventStoreDB.
 */
export async function headAsStored(db: Knex, databaseUrl: string, tenantId: string): Promise<number> {
  const url = testEventStoreUrl();
  if (!url) return Number((await db('event_heads').where({ tenant_id: tenantId }).first('last_seq'))?.last_seq ?? 0);
  const { connectEventStoreDb } = await import('../../src/eventstore/eventstoredb.store.js');
  const log = connectEventStoreDb(url, db, { streamPrefix: streamPrefixFor(databaseUrl) });
  try {
    return await log.head(tenantId);
  } finally {
    await log.close();
  }
}

/**
 * A workspace's events as the log holds them (personal fields sealed, as written), whichever store the
 * service on `databaseUrl` uses: the Postgres `events` table, or its streams on the run's EventStoreDB.
 */
export async function eventsAsStored(
  db: Knex,
  databaseUrl: string,
  storeKind: string,
  tenantId: string,
): Promise<{ id: string; seq: number; type: string; aggregate_id: string; payload: Record<string, unknown>; hash?: string | null }[]> {
  if (storeKind === 'postgres') {
    const rows = await db('events').where({ tenant_id: tenantId }).orderBy('seq').select('id', 'seq', 'type', 'aggregate_id', 'payload', 'hash');
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }
  const url = testEventStoreUrl();
  if (!url) throw new Error(`eventsAsStored: a ${storeKind} store outside TEST_EVENT_STORE=eventstoredb`);
  const { connectEventStoreDb } = await import('../../src/eventstore/eventstoredb.store.js');
  const log = connectEventStoreDb(url, db, { streamPrefix: streamPrefixFor(databaseUrl) });
  try {
    const out: StoredEvent[] = [];
    for (;;) {
      const page = await log.readTenant(tenantId, out.at(-1)?.seq ?? 0, 500);
      if (page.length === 0) return out;
      out.push(...page);
    }
  } finally {
    await log.close();
  }
}
