// A contact is found by e-mail through an index behind row-level security, so a
// lookup costs the same in a workspace of 10 contacts or of a million. Behind the
// policy Postgres refuses index conditions that hand a column to a function not
// marked leakproof: with `lower(email) = lower($1)` on an expression index, every
// lookup (each inbound post, most starts) read all the workspace's contacts.
import { expect } from 'chai';
import { allContactsOf, byEmail } from '../../src/capabilities/contacts/contacts.read.js';
import { TENANT_ROLE } from '../../src/platform/db/tenant-scope.js';
import { mintKey, newWorkspace, startTestService, type TestService } from '../support/service.js';

describe('contacts: lookup by e-mail behind row-level security', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService('contact_email_index');
  });
  after(() => t?.close());

  it('plans the e-mail as an index condition, as the workspace\'s role: no reading through all its contacts', async () => {
    const owner = await newWorkspace(t);
    const key = (await mintKey(t, owner, ['contacts:read', 'contacts:write'])).secret;
    for (let i = 0; i < 3; i++) expect((await t.client.post('/api/contacts', { email: `Person${i}@Example.com`, name: `P ${i}` }, { key })).status).to.equal(201);
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
});
