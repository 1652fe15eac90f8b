// A projection's keyed UPDATE behind row-level security reads only the rows it
// writes, however large the workspace. Postgres estimates a workspace's rows from
// its statistics (it reads the tenant setting when it plans); one outside their
// most common values, new or grown since the last ANALYZE while a few others
// fill the list, was estimated at one row, and the UPDATE a reply projects read
// every conversation of its workspace (TableBatch.keyGuard). The check is the
// plan Postgres runs, as the workspace's role runs it.
import { expect } from 'chai';
import { CONVERSATIONS } from '../../src/capabilities/conversations/conversations.projection.js';
import { TableBatch } from '../../src/projections/table-batch.js';
import { TENANT_ROLE } from '../../src/platform/db/tenant-scope.js';
import { createChannel } from '../support/channels.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

describe('projections behind row-level security: keyed writes read only their rows', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService('tenant_statistics');
  });
  after(() => t?.close());

  /** A workspace with one conversation made through the API and `n` more written straight into the read model. */
  async function busyWorkspace(n: number): Promise<{ owner: Member; ids: string[] }> {
    const owner = await newWorkspace(t);
    const key = (await mintKey(t, owner, ['conversations:write'])).secret;
    const channelId = (await createChannel(t, owner)).id;
    const first = await t.client.post('/api/conversations', { channel_id: channelId, body: 'Hello', contact: { email: 'a@example.com' } }, { key });
    expect(first.status, first.text).to.equal(201);
    const rows = await t.testDb.db.raw(
      `INSERT INTO conversations (tenant_id, id, channel_id, contact_id, subject, state, parts_count, created_at, updated_at, last_part_at)
       SELECT ?::uuid, gen_random_uuid(), ?::uuid, gen_random_uuid(), 'Order ' || g, 'open', 1, now(), now(), now() FROM generate_series(1, ?::int) g
       RETURNING id`,
      [owner.workspaceId, channelId, n],
    );
    return { owner, ids: [first.body.id, ...(rows.rows as { id: string }[]).map((r) => r.id)] };
  }

  it("updates 5 conversations of a workspace of 2,000 by reading 5 rows, not the workspace's", async () => {
    // Statistics gathered over two busy workspaces; a third grows after (as any workspace does between two ANALYZEs).
    await Promise.all([busyWorkspace(2000), busyWorkspace(2000)]);
    await t.testDb.db.raw('ANALYZE conversations');
    const a = await busyWorkspace(2000);
    // The statement a reply's projection sends: counters and times of the conversations replied to.
    const batch = new TableBatch(CONVERSATIONS);
    const now = new Date().toISOString();
    const touched = a.ids.slice(0, 5);
    for (const id of touched) batch.patch({ tenant_id: a.owner.workspaceId, id }, { updated_at: now, last_part_at: now }, { parts_count: 1 });
    const [update] = batch.statements();
    const plan = await asTenant(a.owner.workspaceId, `EXPLAIN (ANALYZE, FORMAT JSON) ${update!.sql}`, update!.bindings);
    const scans = nodes(plan).filter((n) => n['Relation Name'] === 'conversations' && n['Node Type'] !== 'ModifyTable');
    expect(scans, JSON.stringify(plan)).to.have.length(1);
    const read = scans[0]!['Actual Rows']! * scans[0]!['Actual Loops']!;
    expect(read, `conversations read to update ${touched.length}: ${JSON.stringify(scans[0])}`).to.equal(touched.length);
    expect(scans[0]!['Index Cond'], 'the key is an index condition').to.match(/\(id = (v\.id|ANY)/);
  });

  /** The plan of a statement run as a request runs it (the workspace's role and setting), rolled back after. */
  async function asTenant(tenantId: string, explain: string, bindings: readonly unknown[]): Promise<PlanNode> {
    let plan: PlanNode | undefined;
    const undo = new Error('roll back');
    await t.testDb.db
      .transaction(async (trx) => {
        await trx.raw("SELECT set_config('role', ?, true), set_config('app.tenant_id', ?, true)", [TENANT_ROLE, tenantId]);
        plan = ((await trx.raw(explain, bindings as never)).rows as { 'QUERY PLAN': [{ Plan: PlanNode }] }[])[0]!['QUERY PLAN'][0].Plan;
        throw undo;
      })
      .catch((e) => {
        if (e !== undo) throw e;
      });
    return plan!;
  }
});

interface PlanNode {
  'Node Type': string;
  'Plan Rows'?: number;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
