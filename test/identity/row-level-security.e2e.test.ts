// The second tenancy wall: Postgres row-level security. A route mounted only
// in this test (through startService's extraModules hook, never in production)
// runs queries with the tenant filter left out, through the real pipeline: the
// other workspace's rows must still not come back, and writing a row for another
// workspace must be refused by the database.
import { expect } from 'chai';
import { route } from '../../src/api/routes.js';
import { defineModule } from '../../src/capabilities/capability.js';
import { feedTable } from '../../src/capabilities/feed/index.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';

const unfiltered = defineModule({
  name: 'test_only_unfiltered',
  events: [],
  routes: (deps) => [
    route({
      method: 'get',
      path: '/test-only/unfiltered',
      permission: 'conversations:read',
      async handle() {
        // No tenant filter on purpose: the query a bug would write.
        const conversations = await deps.db('conversations').select('tenant_id');
        const members = await deps.db('members').select('tenant_id');
        const feed = await deps.db(feedTable(deps.store.kind)).select('tenant_id');
        const tenants = (rows: { tenant_id: string }[]) => [...new Set(rows.map((r) => r.tenant_id))].sort();
        return { status: 200, body: { conversations: tenants(conversations), members: tenants(members), feed: tenants(feed) } };
      },
    }),
    route<{ tenant_id: string }>({
      method: 'post',
      path: '/test-only/plant',
      permission: 'conversations:write',
      body: { properties: { tenant_id: { type: 'string' } }, required: ['tenant_id'] },
      async handle({ body }) {
        try {
          await deps.db('companies').insert({
            tenant_id: body.tenant_id,
            id: '00000000-0000-4000-8000-00000000abcd',
            company_id: 'planted',
            name: 'x',
            created_at: new Date(),
            updated_at: new Date(),
          });
          return { status: 200, body: { planted: true } };
        } catch (e) {
          return { status: 200, body: { planted: false, code: (e as { code?: string }).code } };
        }
      },
    }),
  ],
});

async function twoWorkspacesWithData(t: TestService): Promise<{ a: Member; b: Member; keyA: string }> {
  const a = await newWorkspace(t, 'A');
  const b = await newWorkspace(t, 'B');
  for (const m of [a, b]) {
    const ch = await createChannel(t, m);
    const k = (await mintKey(t, m, ['conversations:write'])).secret;
    const r = await t.client.post('/api/conversations', { channel_id: ch.id, body: 'hi', contact: { email: 'c@example.com' } }, { key: k });
    expect(r.status, r.text).to.equal(201);
  }
  return { a, b, keyA: (await mintKey(t, a, ['conversations:read', 'conversations:write'])).secret };
}

describe('row-level security', () => {
  let t: TestService;
  before(async () => (t = await startTestService('rls', { extraModules: [unfiltered] })));
  after(() => t?.close());

  it('puts every table that has a tenant_id (and workspaces) behind a tenant policy', async () => {
    const res = await t.testDb.db.raw(`
      SELECT c.relname, c.relrowsecurity, (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid AND p.polname = 'tenant_wall')::int AS policies
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r'
        AND (c.relname = 'workspaces' OR EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped))`);
    const rows = res.rows as { relname: string; relrowsecurity: boolean; policies: number }[];
    expect(rows.length).to.be.greaterThan(15);
    expect(rows.filter((r) => !r.relrowsecurity || r.policies !== 1).map((r) => r.relname)).to.deep.equal([]);
  });

  it("returns only the caller's rows from a query that forgot its tenant filter", async () => {
    const { a, b, keyA } = await twoWorkspacesWithData(t);
    const all = await t.testDb.db('conversations').distinct('tenant_id');
    expect(all.map((r: { tenant_id: string }) => r.tenant_id)).to.include.members([a.workspaceId, b.workspaceId]);
    const r = await t.client.get('/api/test-only/unfiltered', { key: keyA });
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.deep.equal({ conversations: [a.workspaceId], members: [a.workspaceId], feed: [a.workspaceId] });
  });

  it('refuses to write a row for another workspace', async () => {
    const { b, keyA } = await twoWorkspacesWithData(t);
    const r = await t.client.post('/api/test-only/plant', { tenant_id: b.workspaceId }, { key: keyA });
    expect(r.body).to.deep.equal({ planted: false, code: '42501' }); // insufficient_privilege: new row violates row-level security policy
    expect(await t.testDb.db('companies').where({ company_id: 'planted' })).to.deep.equal([]);
  });
});

describe('row-level security turned off (ROW_LEVEL_SECURITY=off, for measuring its cost)', () => {
  let t: TestService;
  before(async () => (t = await startTestService('rls_off', { extraModules: [unfiltered], env: { ROW_LEVEL_SECURITY: 'off' } })));
  after(() => t?.close());

  it('lets the unfiltered query see every workspace: the wall above is what filtered it', async () => {
    const { a, b, keyA } = await twoWorkspacesWithData(t);
    const r = await t.client.get('/api/test-only/unfiltered', { key: keyA });
    expect(r.body.conversations).to.deep.equal([a.workspaceId, b.workspaceId].sort());
  });
});
