// The EventStoreDB adapter as the contract suite runs it, on a real server
// (EVENTSTORE_URL) or on the in-process server model. Made to run on a
// long-lived shared server for ever: each run writes to streams of its own
// (a prefix of its own instead of `tenant-`) and reads $all only from the end
// it found when it began, never from the start of the log.
import { randomBytes } from 'node:crypto';
import { connectEventStoreDb, type EventStoreDbOptions, type EventStoreDbStore } from '../../src/eventstore/eventstoredb.store.js';
import { createTestDb, type TestDb } from '../support/db.js';
import type { StoreUnderTest } from './store.contract.js';

export interface EsdbUnderTest extends StoreUnderTest {
  store: EventStoreDbStore;
  readModels: TestDb;
  prefix: string;
}

export async function eventStoreDbUnderTest(
  url: string,
  label: string,
  opts: EventStoreDbOptions & { restart?(): Promise<void> } = {},
): Promise<EsdbUnderTest> {
  // Read models (and the adapter's event id index) live in Postgres even in EventStoreDB mode.
  const readModels = await createTestDb(label);
  const prefix = `contract${randomBytes(6).toString('hex')}-`;
  const store = connectEventStoreDb(url, readModels.db, { streamPrefix: prefix, ...opts });
  const unchained = connectEventStoreDb(url, readModels.db, { streamPrefix: prefix, ...opts, chain: false });
  let start: string | null;
  try {
    start = await store.endCheckpoint();
  } catch (e) {
    await store.close();
    await unchained.close();
    await readModels.drop();
    throw e;
  }
  return {
    store,
    unchained,
    start,
    prefix,
    readModels,
    restart: opts.restart,
    async cleanup() {
      await store.close();
      await unchained.close();
      await readModels.drop();
    },
  };
}
