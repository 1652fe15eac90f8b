// A projection's keyed UPDATE behind row-level security reads only the rows it
// writes, however large the workspace. Postgres estimates a workspace's rows from
// its statistics (it reads the tenant setting when it plans); one outside their
// most common values, new or grown since the last ANALYZE while a few others
// fill the list, was estimated at one row, and the UPDATE a reply projects read
// every conversation of its workspace (TableBatch.keyGuard). The check is the
// plan Postgres runs, as the workspace's role runs it.
import { expect } from 'chai';
import { CONVERSATIONS } from '../../src/capabilities/conversations/conversations.projection.js';
import { writeStatistics } from '../../src/capabilities/sla/statistics.projection.js';
import { TableBatch, Writes } from '../../src/projections/table-batch.js';
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

  it("upserts the statistics of 5 conversations of a workspace of 2,000 by reading their 5 stored rows, not the workspace's", async () => {
    // Each conversation with its statistics row, as the projection leaves it; statistics gathered before the third grows.
    const withStatistics = async (n: number) => {
      const w = await busyWorkspace(n);
      await t.testDb.db.raw(
        `INSERT INTO conversation_statistics (tenant_id, conversation_id, created_at, state, reopens, teammate_replies, customer_replies, seq)
         SELECT tenant_id, id, created_at, 'open', 0, 0, 0, 1 FROM conversations WHERE tenant_id = ? ON CONFLICT DO NOTHING`,
        [w.owner.workspaceId],
      );
      return w;
    };
    await Promise.all([withStatistics(2000), withStatistics(2000)]);
    await t.testDb.db.raw('ANALYZE conversation_statistics');
    const a = await withStatistics(2000);
    // The statement a reply group's projection sends: a teammate reply on each of 5 conversations.
    const now = new Date().toISOString();
    const writes = new Writes();
    writeStatistics(
      a.ids.slice(0, 5).map((id, i) => ({
        tenant_id: a.owner.workspaceId,
        conversation_id: id,
        created_at: null,
        state: null,
        state_changed_at: null,
        reply_first: now,
        reply_after_customer: null,
        last_response_at: now,
        awaiting_since: null,
        first_closed_at: null,
        last_closed_at: null,
        reopens: 0,
        teammate_replies: 1,
        customer_replies: 0,
        seq: 10 + i,
      })),
      writes,
    );
    const [upsert] = writes.statements();
    const plan = await asTenant(a.owner.workspaceId, `EXPLAIN (ANALYZE, FORMAT JSON) ${upsert!.sql}`, upsert!.bindings);
    const scans = nodes(plan).filter((n) => n['Relation Name'] === 'conversation_statistics' && n['Node Type'] !== 'ModifyTable');
    expect(scans, JSON.stringify(plan)).to.have.length(1);
    const read = scans[0]!['Actual Rows']! * scans[0]!['Actual Loops']!;
    expect(read, `statistics read to upsert 5: ${JSON.stringify(scans[0])}`).to.equal(5);
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
