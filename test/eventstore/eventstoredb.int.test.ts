// The shared event store contract, run against EventStoreDB. It needs a running
// server, so without EVENTSTORE_URL the suite registers as skipped and says why in
// the mocha output (design guide: say so, never pretend it passed).
import { connectEventStoreDb } from '../../src/eventstore/eventstoredb.store.js';
import { createTestDb } from '../support/db.js';
import { runEventStoreContract } from './store.contract.js';

const url = process.env.EVENTSTORE_URL?.trim();

if (!url) {
  describe('EventStoreDB event store (skipped: EVENTSTORE_URL is not set; needs a running EventStoreDB server)', function () {
    before(function () {
      this.skip();
    });
    it('runs the event store contract suite', () => {});
  });
} else {
  runEventStoreContract('EventStoreDB', async () => {
    // Read models live in Postgres even in EventStoreDB mode (sessions' `db`);
    // ESDB itself is shared across runs, so the contract uses fresh tenant uuids.
    const readModels = await createTestDb('esdb_contract');
    const store = connectEventStoreDb(url, readModels.db);
    return {
      store,
      async cleanup() {
        await store.close();
        await readModels.drop();
      },
    };
  });
}
