// Migration 035 hashes the events stored before the chain existed, per
// workspace in seq order from the genesis value, so that an upgraded database
// verifies from its first event; appends after it go on from the backfilled head.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import type { StoredEvent } from '../../src/eventstore/envelope.js';
import { canonicalReady, chainHash, GENESIS } from '../../src/platform/crypto/chain.js';
import * as m035 from '../../src/platform/db/migrations/035_event_hash_chain.js';
import { createTestDb, type TestDb } from '../support/db.js';
import { pending } from '../support/events.js';

describe('migration 035: the hash chain over events stored before it', function () {
  this.timeout(120_000);
  let t: TestDb;
  before(async () => {
    t = await createTestDb('chain-backfill');
  });
  after(async () => t?.drop());

  const chainHolds = (events: StoredEvent[]) => {
    let prev = GENESIS;
    for (const e of events) {
      expect(e.hash, `seq ${e.seq}`).to.equal(chainHash(prev, e));
      prev = e.hash!;
    }
  };

  it('hashes every workspace from its first event, a page at a time, and later appends follow on', async () => {
    // Events as an earlier version stored them: no hash.
    const before = new PostgresEventStore(t.db, null, { chain: false });
    const tenants = [randomUUID(), randomUUID()];
    for (const tenant of tenants) {
      let at = 0;
      for (let i = 0; i < 9; i++) at = (await before.append(tenant, pending(500), at)).at(-1)!.seq;
    }
    expect(Number((await t.db('events').whereIn('tenant_id', tenants).whereNotNull('hash').count<{ n: string }[]>({ n: '*' }))[0]!.n)).to.equal(0);

    await m035.up(t.db);
    await canonicalReady;

    const store = new PostgresEventStore(t.db, null);
    for (const tenant of tenants) {
      const all: StoredEvent[] = [];
      for (let page; (page = await store.readTenant(tenant, all.at(-1)?.seq ?? 0, 1000)).length > 0;) all.push(...page);
      expect(all).to.have.length(4500);
      chainHolds(all);
      const next = await store.append(tenant, pending(2), 4500);
      expect(next[0]!.hash).to.equal(chainHash(all.at(-1)!.hash!, next[0]!));
    }
  });
});
