// The shared event store contract, run against a real EventStoreDB server: the
// server tier (*.server.test.ts), which `npm test` leaves out because it needs a
// server no npm package provides. `npm run test:eventstoredb` runs it and fails
// without EVENTSTORE_URL (never a silent skip). docs/eventstoredb.md says how to
// build and start a server here:
//   EVENTSTORE_URL=esdb://127.0.0.1:2113?tls=false npm run test:eventstoredb
// Repeatable on a shared server (see eventstoredb.harness.ts). What runs without
// a server, in `npm test`, is the adapter against the in-process model
// (eventstoredb.model.int.test.ts).
import { runEventStoreContract } from './store.contract.js';
import { eventStoreDbUnderTest } from './eventstoredb.harness.js';

const url = process.env.EVENTSTORE_URL?.trim();
if (!url) throw new Error('the EventStoreDB tier needs EVENTSTORE_URL (esdb://host:port?tls=false): see docs/eventstoredb.md');

runEventStoreContract(`EventStoreDB (${url.replace(/\/\/[^@/]*@/, '//***@')})`, () => eventStoreDbUnderTest(url, 'esdb_contract'));
