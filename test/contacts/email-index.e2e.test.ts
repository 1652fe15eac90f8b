// A contact is found by e-mail through an index behind row-level security, so a
// lookup costs the same in a workspace of 10 contacts or of a million. Behind the
// policy Postgres refuses index conditions that hand a column to a function not
// marked leakproof: with `lower(email) = lower($1)` on an expression index, every
// lookup (each inbound post, most starts) read all the workspace's contacts.
import { expect } from 'chai';
import { allContactsOf, byEmail, BY_EXTERNAL_IDS_AND_EMAILS } from '../../src/capabilities/contacts/contacts.read.js';
import { TENANT_ROLE } from '../../src/platform/db/tenant-scope.js';
import { mintKey, newWorkspace, startTestService, type TestService } from '../support/service.js';

describe('contacts: lookup by e-mail behind row-level security', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService('contact_email_index');
  });
  after(() => t?.close());

  it("plans the e-mail as an index condition, as the workspace's role: no reading through all its contacts", async () => {
    const owner = await newWorkspace(t);
    const key = (await mintKey(t, owner, ['contacts:read', 'contacts:write'])).secret;
    for (let i = 0; i < 3; i++)
      expect((await t.client.post('/api/contacts', { email: `Person${i}@Example.com`, name: `P ${i}` }, { key })).status).to.equal(201);
    const db = t.testDb.db;
    const plan = await db.transaction(async (trx) => {
      // As a request runs: the workspace's role and setting. Sequential scans off, so only a usable index avoids one.
      await trx.raw("SELECT set_config('role', ?, true), set_config('app.tenant_id', ?, true)", [TENANT_ROLE, owner.workspaceId]);
      await trx.raw('SET LOCAL enable_seqscan = off');
      const q = byEmail(allContactsOf(trx, owner.workspaceId), 'PERSON1@example.COM').select('id');
      const found = await q.clone();
      const { sql, bindings } = q.toSQL().toNative();
      const rows = (await trx.raw(`EXPLAIN ${sql.replace(/\$(\d+)/g, '?')}`, bindings as never)).rows as { 'QUERY PLAN': string }[];
      expect(found).to.have.length(1);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    // The e-mail is a condition of the index scan, not a filter over every contact the tenant condition finds.
    expect(plan).to.match(/Index Cond: .*email_lower = /);
    expect(plan).to.not.match(/Seq Scan|Filter: .*email/);
  });

  it("plans a group commit's batched lookup (external_ids and e-mails together) by index too", async () => {
    const owner = await newWorkspace(t);
    const key = (await mintKey(t, owner, ['contacts:read', 'contacts:write'])).secret;
    for (let i = 0; i < 3; i++) {
      const res = await t.client.post('/api/contacts', { email: `Batch${i}@Example.com`, external_id: `b-${i}`, name: `B ${i}` }, { key });
      expect(res.status).to.equal(201);
    }
    // With three contacts any plan is cheap and Postgres rightly reads them all; planner statistics of a
    // workspace of 5,000 (read-model rows only, written as the owner) make it choose as it would in production.
    await t.testDb.db.raw(
      `INSERT INTO contacts (tenant_id, id, external_id, email, name, created_at, updated_at)
      SELECT ?::uuid, gen_random_uuid(), 'g-' || g, 'g' || g || '@example.com', 'G', now(), now() FROM generate_series(1, 5000) g`,
      [owner.workspaceId],
    );
    await t.testDb.db.raw('ANALYZE contacts');
    const plan = await t.testDb.db.transaction(async (trx) => {
      await trx.raw("SELECT set_config('role', ?, true), set_config('app.tenant_id', ?, true)", [TENANT_ROLE, owner.workspaceId]);
      await trx.raw('SET LOCAL enable_seqscan = off');
      // b-0 by its external_id; BATCH1@… by e-mail under an external_id nobody holds.
      const bindings = [['b-0', 'nobody'], owner.workspaceId, ['b-0', 'nobody'], ['x@example.com', 'BATCH1@example.COM'], owner.workspaceId];
      const found = (await trx.raw(BY_EXTERNAL_IDS_AND_EMAILS, bindings as never)).rows as { i: number; external_id: string; via: string }[];
      expect(found.map((r) => [r.i, r.via, r.external_id]).sort()).to.deep.equal([
        [1, 'external_id', 'b-0'],
        [2, 'email', 'b-1'],
      ]);
      const rows = (await trx.raw(`EXPLAIN ${BY_EXTERNAL_IDS_AND_EMAILS}`, bindings as never)).rows as { 'QUERY PLAN': string }[];
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).to.match(/Index Cond: .*email_lower = /);
    expect(plan).to.match(/Index Cond: .*external_id = /);
    expect(plan).to.not.match(/Seq Scan on contacts|Filter: .*email_lower/);
  });
});
