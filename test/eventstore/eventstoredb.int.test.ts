// The shared event store contract, run against a real EventStoreDB server. It
// needs one, so without EVENTSTORE_URL the suite registers as skipped and says
// why in the mocha output (design guide: say so, never pretend it passed).
// With docker-compose.yml's server:
//   EVENTSTORE_URL=esdb://localhost:2113?tls=false npx mocha test/eventstore/eventstoredb.int.test.ts
// Repeatable on a shared server (see eventstoredb.harness.ts). What runs without
// a server is the adapter against the in-process model (eventstoredb.model.int.test.ts).
import { runEventStoreContract } from './store.contract.js';
import { eventStoreDbUnderTest } from './eventstoredb.harness.js';

const url = process.env.EVENTSTORE_URL?.trim();

if (!url) {
  describe('EventStoreDB event store contract (SKIPPED: EVENTSTORE_URL is not set; it needs a running EventStoreDB server, see docs/eventstoredb.md)', function () {
    before(function () {
      console.log('    [eventstoredb] SKIPPED: the contract did not run against EventStoreDB (no EVENTSTORE_URL)');
      this.skip();
    });
    it('runs the event store contract suite against EventStoreDB', () => {});
  });
} else {
  runEventStoreContract(`EventStoreDB (${url.replace(/\/\/[^@/]*@/, '//***@')})`, () => eventStoreDbUnderTest(url, 'esdb_contract'));
}
