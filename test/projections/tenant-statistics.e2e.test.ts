// Statements by key behind row-level security read only their keys' rows,
// however large the workspace: a projection's keyed UPDATE, the SLA statistics'
// upsert, the answers' reads. Postgres estimated a workspace outside its
// statistics' most common values (new, or grown since the last ANALYZE while a
// few others fill the list) at one row, and read every row of it through another
// index to keep a few (docs/performance.md, "Reads by key behind the wall"). The
// check is the plan Postgres runs, as the workspace's role runs it.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { CONVERSATIONS } from '../../src/capabilities/conversations/conversations.projection.js';
import { findConversation, partsWithConversations, renderConversation } from '../../src/capabilities/conversations/conversations.read.js';
import { conversationMetrics } from '../../src/capabilities/sla/sla.read.js';
import { writeStatistics } from '../../src/capabilities/sla/statistics.projection.js';
import { TableBatch, Writes } from '../../src/projections/table-batch.js';
import { TENANT_ROLE } from '../../src/platform/db/tenant-scope.js';
import { createChannel } from '../support/channels.js';
import { rowsRead, scansOf, type PlanNode } from '../support/plans.js';
import { createTestDb } from '../support/db.js';
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

  /** Statistics gathered over two busy workspaces; a third grows after (as any workspace does between two ANALYZEs). */
  async function conversationsUpdate(n: number): Promise<{ tenantId: string; sql: string; bindings: readonly unknown[] }> {
    await Promise.all([busyWorkspace(2000), busyWorkspace(2000)]);
    await t.testDb.db.raw('ANALYZE conversations');
    const a = await busyWorkspace(2000);
    // The statement a reply's projection sends: counters and times of the conversations replied to.
    const batch = new TableBatch(CONVERSATIONS);
    const now = new Date().toISOString();
    for (const id of a.ids.slice(0, n)) batch.patch({ tenant_id: a.owner.workspaceId, id }, { updated_at: now, last_part_at: now }, { parts_count: 1 });
    const [update] = batch.statements();
    return { tenantId: a.owner.workspaceId, ...update! };
  }

  /** The plan reads the table's rows by its primary key (or `index`, another unique key), one probe per key, and no others. */
  function readByKey(plan: PlanNode, table: string, keys: number, index = `${table}_pkey`): void {
    const scans = scansOf(plan, table);
    expect(scans, JSON.stringify(plan)).to.have.length(1);
    expect(rowsRead(plan, table), `${table} read for ${keys} keys: ${JSON.stringify(scans[0])}`).to.equal(keys);
    // Not another index on the workspace, scanned whole with the ids checked against each entry (a skip scan: its
    // rows read are the ids' alone, its cost the workspace's)
    expect(scans[0]!['Index Name'], JSON.stringify(scans[0])).to.equal(index);
  }

  /** Every scan of `table` in `plan` is a probe of `index`, one a slot of the padded batch (keySlots). */
  function probedByKey(plan: PlanNode, table: string, slots: number, index: string): void {
    const scans = scansOf(plan, table);
    expect(
      scans.map((s) => s['Index Name']),
      JSON.stringify(scans),
    ).to.deep.equal(Array.from({ length: slots }, () => index));
  }

  it("updates 5 conversations of a workspace of 2,000 by reading 5 rows, not the workspace's", async () => {
    const update = await conversationsUpdate(5);
    readByKey(await asTenant(update.tenantId, `EXPLAIN (ANALYZE, FORMAT JSON) ${update.sql}`, update.bindings), 'conversations', 5);
  });

  it('updates a group of 16 the same way when the plan is the generic one a named statement keeps', async () => {
    // The projection's writes go inside the append's statement, which the pool sends as a named prepared statement:
    // after five runs Postgres keeps a generic plan (auto_explain in the reply bench: the index on contacts scanned
    // over the whole workspace for each group).
    const update = await conversationsUpdate(16);
    readByKey(await asTenant(update.tenantId, update.sql, update.bindings, { generic: true }), 'conversations', 16);
  });

  /** Each conversation with its statistics and SLA rows, as the projections leave them. */
  async function withStatistics(n: number): Promise<{ owner: Member; ids: string[] }> {
    const w = await busyWorkspace(n);
    await t.testDb.db.raw(
      `INSERT INTO conversation_statistics (tenant_id, conversation_id, created_at, state, reopens, teammate_replies, customer_replies, seq)
       SELECT tenant_id, id, created_at, 'open', 0, 0, 0, 1 FROM conversations WHERE tenant_id = ? ON CONFLICT DO NOTHING`,
      [w.owner.workspaceId],
    );
    await t.testDb.db.raw(
      `INSERT INTO conversation_parts (tenant_id, id, conversation_id, seq, part_type, body, author_type, author_id, created_at)
       SELECT tenant_id, gen_random_uuid(), id, 100, 'comment', 'Noted', 'admin', 'bench', now() FROM conversations WHERE tenant_id = ?`,
      [w.owner.workspaceId],
    );
    await t.testDb.db.raw(
      `INSERT INTO conversation_slas (tenant_id, conversation_id, breaches, met, updated_at)
       SELECT tenant_id, id, '{}', '{}', now() FROM conversations WHERE tenant_id = ? ON CONFLICT DO NOTHING`,
      [w.owner.workspaceId],
    );
    return w;
  }

  /** Two workspaces counted by ANALYZE, then a third that grows after it (as any workspace does between two). */
  async function grownAfterAnalyze(): Promise<{ owner: Member; ids: string[] }> {
    await Promise.all([withStatistics(2000), withStatistics(2000)]);
    await t.testDb.db.raw('ANALYZE conversations; ANALYZE conversation_parts; ANALYZE conversation_statistics; ANALYZE conversation_slas');
    return withStatistics(2000);
  }

  /** The statistics upsert of a reply group: a teammate reply on each of `ids`. */
  function statisticsUpsert(tenantId: string, ids: string[]): { sql: string; bindings: readonly unknown[] } {
    const now = new Date().toISOString();
    const writes = new Writes();
    writeStatistics(
      ids.map((id, i) => ({
        tenant_id: tenantId,
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
    return writes.statements()[0]!;
  }

  it("upserts the statistics of 5 conversations of a workspace of 2,000 by reading their 5 stored rows, not the workspace's", async () => {
    const a = await grownAfterAnalyze();
    const upsert = statisticsUpsert(a.owner.workspaceId, a.ids.slice(0, 5));
    readByKey(await asTenant(a.owner.workspaceId, `EXPLAIN (ANALYZE, FORMAT JSON) ${upsert.sql}`, upsert.bindings), 'conversation_statistics', 5);
  });

  it('upserts the statistics of a group of 16 the same way when the plan is the generic one a named statement keeps', async () => {
    // The projection's writes go inside the append's statement, which the pool sends as a named prepared statement:
    // after five runs Postgres keeps a generic plan, costed without the ids (auto_explain in the reply bench: 1,000
    // statistics rows read per group through the index on (tenant_id, created_at)).
    const a = await grownAfterAnalyze();
    const upsert = statisticsUpsert(a.owner.workspaceId, a.ids.slice(0, 16));
    readByKey(await asTenant(a.owner.workspaceId, upsert.sql, upsert.bindings, { generic: true }), 'conversation_statistics', 16);
  });

  // The answers' read (conversationMetrics) with the workspace's id as a constant: a workspace outside the statistics'
  // common values is estimated at one row (auto_explain in the reply bench: up to 1,000 statistics rows and 15,557
  // SLA rows read for one group's answers). Up to 16 ids it is a probe of each key (keySlots), past that planned per call.
  for (const n of [14, 20]) {
    it(`reads the sla and statistics of ${n} conversations' answers by reading their ${n} rows of each`, async () => {
      const a = await grownAfterAnalyze();
      const wanted = a.ids.slice(0, n);
      const sent = await statementOf(/FROM conversation_statistics s|FROM \(SELECT \* FROM conversation_statistics/, async () => {
        const metrics = await conversationMetrics(t.testDb.db, a.owner.workspaceId, wanted);
        expect([...metrics.keys()].sort()).to.deep.equal([...wanted].sort());
      });
      const plan = await asTenant(a.owner.workspaceId, `EXPLAIN (ANALYZE, FORMAT JSON) ${sent.sql}`, sent.bindings);
      expect(rowsRead(plan, 'conversation_statistics'), JSON.stringify(plan)).to.equal(n);
      expect(rowsRead(plan, 'conversation_slas'), JSON.stringify(plan)).to.equal(n);
    });
  }

  it('reads the sla and statistics of 14 answers the same way with the generic plan a named statement keeps', async () => {
    // Up to 16 ids the read is a probe of each key, padded to 16 (keySlots), sent under one name: Postgres keeps a
    // generic plan for it instead of planning it on every call, and each probe, by the whole key, is the key's index.
    const a = await grownAfterAnalyze();
    const wanted = a.ids.slice(0, 14);
    const sent = await statementOf(/FROM \(SELECT \* FROM conversation_statistics/, async () => {
      const metrics = await conversationMetrics(t.testDb.db, a.owner.workspaceId, wanted);
      expect([...metrics.keys()].sort()).to.deep.equal([...wanted].sort());
    });
    const plan = await asTenant(a.owner.workspaceId, sent.sql, sent.bindings, { generic: true });
    probedByKey(plan, 'conversation_statistics', 16, 'conversation_statistics_pkey');
    expect(rowsRead(plan, 'conversation_statistics'), JSON.stringify(plan)).to.equal(14);
    expect(rowsRead(plan, 'conversation_slas'), JSON.stringify(plan)).to.equal(14);
  });

  /** 14 or `n` parts of the grown workspace, each of another conversation, as a reply group's answers name them. */
  async function replyAnswers(tenantId: string, n: number): Promise<{ conversationId: string; partId: string }[]> {
    const parts = await t.testDb.db.raw(
      `SELECT DISTINCT ON (conversation_id) conversation_id, id FROM conversation_parts WHERE tenant_id = ? AND seq = 100 LIMIT ?`,
      [tenantId, n],
    );
    const wanted = (parts.rows as { conversation_id: string; id: string }[]).map((r) => ({ conversationId: r.conversation_id, partId: r.id }));
    expect(wanted).to.have.length(n);
    return wanted;
  }

  /** The statement partsWithConversations sends for `wanted`, its answers checked. */
  const replyAnswersStatement = (tenantId: string, wanted: { conversationId: string; partId: string }[]) =>
    statementOf(/FROM unnest|FROM \(VALUES/, async () => {
      const answers = await partsWithConversations(t.testDb.db, tenantId, wanted, { select: () => null, render: renderConversation });
      expect(answers.map((x) => x?.conversation.id)).to.deep.equal(wanted.map((w) => w.conversationId));
    });

  // The answers of a reply group (partsWithConversations) with the workspace's id as a constant: up to 16 as rows
  // of scalars padded to a kept plan's size (keySlots), past that planned per call.
  for (const n of [14, 20]) {
    it(`reads ${n} replies' answers, each part with its conversation, by reading ${n} parts and ${n} conversations`, async () => {
      const a = await grownAfterAnalyze();
      const sent = await replyAnswersStatement(a.owner.workspaceId, await replyAnswers(a.owner.workspaceId, n));
      const plan = await asTenant(a.owner.workspaceId, `EXPLAIN (ANALYZE, FORMAT JSON) ${sent.sql}`, sent.bindings);
      readByKey(plan, 'conversations', n);
      expect(rowsRead(plan, 'conversation_parts'), JSON.stringify(plan)).to.equal(n);
    });
  }

  it("reads 14 replies' answers the same way with the generic plan a named statement keeps", async () => {
    const a = await grownAfterAnalyze();
    const sent = await replyAnswersStatement(a.owner.workspaceId, await replyAnswers(a.owner.workspaceId, 14));
    const plan = await asTenant(a.owner.workspaceId, sent.sql, sent.bindings, { generic: true });
    readByKey(plan, 'conversations', 14);
    expect(rowsRead(plan, 'conversation_parts'), JSON.stringify(plan)).to.equal(14);
  });

  it("loads a group's 5 conversations with the generic plan a named statement keeps by probing each by its key", async () => {
    // The commands' load (findConversation, batched per handle): 2 to 16 ids are probes of the key, padded (keySlots).
    const a = await grownAfterAnalyze();
    const ids = a.ids.slice(0, 5);
    const sent = await statementOf(/^SELECT \* FROM conversations WHERE tenant_id = \S+ AND id = \S+ UNION ALL/, async () => {
      const found = await Promise.all(ids.map((id) => findConversation(t.testDb.db, a.owner.workspaceId, id)));
      expect(found.map((c) => c?.id)).to.deep.equal(ids);
    });
    const plan = await asTenant(a.owner.workspaceId, sent.sql, sent.bindings, { generic: true });
    probedByKey(plan, 'conversations', 8, 'conversations_pkey');
    expect(rowsRead(plan, 'conversations'), JSON.stringify(plan)).to.equal(5);
  });

  it("an append's check for an already stored event probes the event's key, not the workspace's events", async () => {
    // es_append looks its first event up (a retry is answered with what is stored) on every append. PL/pgSQL plans
    // that look-up with the workspace's id as a constant: one the statistics did not count yet was estimated at one
    // row, and the look-up read the workspace's events through events_by_aggregate (auto_explain in the write bench).
    const append = (tenantId: string, n: number) =>
      t.testDb.db.raw('SELECT count(*) FROM es_append(?::uuid, NULL, ?::jsonb)', [tenantId, JSON.stringify(tagsCreated(n))]);
    const [w1, w2] = await Promise.all([newWorkspace(t), newWorkspace(t)]);
    await append(w1.workspaceId, 2000);
    await append(w2.workspaceId, 2000);
    await t.testDb.db.raw('ANALYZE events');
    const a = await newWorkspace(t);
    await append(a.workspaceId, 2000);
    const plans = await nestedPlans(a.workspaceId, 'SELECT count(*) FROM es_append($1::uuid, NULL, $2::jsonb)', [
      a.workspaceId,
      JSON.stringify(tagsCreated(1)),
    ]);
    // the event is new: the probe finds nothing, through the unique key on (tenant_id, id)
    readByKey(retryCheck(plans).Plan, 'events', 0, 'events_tenant_id_id_key');
  });

  it("an append's check for an already stored event, planned while the log was small, still probes the key once the workspace has grown", async () => {
    // A new database: `events` never analyzed (autovacuum kept off it here, as before its first visit). A
    // connection's first appends plan the check while the log is a few pages, and PL/pgSQL keeps that plan until the
    // table's statistics change. Every index that starts with tenant_id cost the same then, the planner took the
    // newest, and the check read the workspace's events with the id as a filter on every append (auto_explain in
    // the reply bench: 2,000 to 5,000 events an append; docs/performance.md, "Kept plans in a database's first minute").
    const young = await createTestDb('young_log');
    try {
      await young.db.raw('ALTER TABLE events SET (autovacuum_enabled = off)');
      const tenantId = randomUUID();
      const APPEND = 'SELECT count(*) FROM es_append($1::uuid, NULL, $2::jsonb)';
      const plans = await nestedPlans(tenantId, APPEND, [tenantId, JSON.stringify(tagsCreated(1))], {
        url: young.url,
        before: async (c) => {
          await c.query("SELECT set_config('role', $1, false), set_config('app.tenant_id', $2, false)", [TENANT_ROLE, tenantId]);
          // more than the five runs after which a kept plan may be the generic one
          for (let i = 0; i < 8; i++) await c.query(APPEND, [tenantId, JSON.stringify(tagsCreated(1))]);
          // the workspace grows meanwhile, through another connection
          await young.db.raw('SELECT count(*) FROM es_append(?::uuid, NULL, ?::jsonb)', [tenantId, JSON.stringify(tagsCreated(3000))]);
          await c.query('RESET role');
        },
      });
      const analyzed = await young.db.raw("SELECT analyze_count + autoanalyze_count AS n FROM pg_stat_user_tables WHERE relname = 'events'");
      expect(Number(analyzed.rows[0].n), 'events analyzed meanwhile: the plan kept was made again').to.equal(0);
      // the event is new: the kept plan probes the unique key on (tenant_id, id) and reads nothing, not the workspace
      readByKey(retryCheck(plans).Plan, 'events', 0, 'events_tenant_id_id_key');
    } finally {
      await young.drop();
    }
  });

  /** The plan of es_append's check for an already stored first event, among the nested plans of an append. */
  function retryCheck(plans: { 'Query Text': string; Plan: PlanNode }[]): { 'Query Text': string; Plan: PlanNode } {
    const check = plans.find((p) => /^\(SELECT id FROM events WHERE tenant_id = .* ORDER BY id LIMIT 1\)/.test(p['Query Text']));
    expect(check, plans.map((p) => p['Query Text']).join('\n')).to.not.equal(undefined);
    return check!;
  }

  /** `n` tag.created events, as es_append takes them. */
  const tagsCreated = (n: number) =>
    Array.from({ length: n }, (_, i) => {
      const id = randomUUID();
      return {
        id: randomUUID(),
        type: 'tag.created',
        aggregate_type: 'tag',
        aggregate_id: id,
        payload: { id, name: `tag ${i}` },
        created_at: new Date().toISOString(),
      };
    });

  /**
   * The plans of the statements a statement runs inside the functions it calls (auto_explain, its log sent to this
   * client as notices), run as the workspace's role and rolled back. `before` runs first on the same connection,
   * committed and not logged: what the session did before (the plans it keeps).
   */
  async function nestedPlans(
    tenantId: string,
    sql: string,
    values: unknown[],
    o: { url?: string; before?: (c: pg.Client) => Promise<void> } = {},
  ): Promise<{ 'Query Text': string; Plan: PlanNode }[]> {
    const c = new pg.Client({ connectionString: o.url ?? t.testDb.url });
    const plans: { 'Query Text': string; Plan: PlanNode }[] = [];
    c.on('notice', (n) => {
      const text = (n.message ?? '').replace(/^duration: [\d.]+ ms\s+plan:\s*/, '');
      if (text.startsWith('{')) plans.push(JSON.parse(text) as { 'Query Text': string; Plan: PlanNode });
    });
    await c.connect();
    try {
      await o.before?.(c);
      await c.query("LOAD 'auto_explain'");
      await c.query(
        "SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on; SET auto_explain.log_nested_statements = on; SET auto_explain.log_format = 'json'",
      );
      await c.query('BEGIN');
      await c.query("SELECT set_config('role', $1, true), set_config('app.tenant_id', $2, true)", [TENANT_ROLE, tenantId]);
      await c.query("SET LOCAL client_min_messages = 'log'");
      await c.query(sql, values);
      await c.query('ROLLBACK');
    } finally {
      await c.end();
    }
    return plans;
  }

  /** The statement `run` sends that matches `pattern`, with its bindings. */
  async function statementOf(pattern: RegExp, run: () => Promise<unknown>): Promise<{ sql: string; bindings: readonly unknown[] }> {
    let sent: { sql: string; bindings: readonly unknown[] } | undefined;
    const capture = (q: { sql: string; bindings?: readonly unknown[] }) => {
      // the event gives the statement as sent ($1, $2 …, in the bindings' order)
      if (pattern.test(q.sql)) sent = { sql: q.sql.replace(/\$\d+/g, '?'), bindings: q.bindings ?? [] };
    };
    t.testDb.db.on('query', capture);
    try {
      await run();
    } finally {
      t.testDb.db.off('query', capture);
    }
    expect(sent, `a statement matching ${pattern}`).to.not.equal(undefined);
    return sent!;
  }

  /**
   * The plan of a statement run as a request runs it (the workspace's role and setting), rolled back after.
   * `generic`: `statement` (not an EXPLAIN) is prepared and run with the generic plan Postgres keeps for a named
   * statement, whose parameters it costs without their values.
   */
  async function asTenant(tenantId: string, statement: string, bindings: readonly unknown[], o: { generic?: boolean } = {}): Promise<PlanNode> {
    let plan: PlanNode | undefined;
    const undo = new Error('roll back');
    await t.testDb.db
      .transaction(async (trx) => {
        await trx.raw("SELECT set_config('role', ?, true), set_config('app.tenant_id', ?, true)", [TENANT_ROLE, tenantId]);
        let explain = statement;
        if (o.generic) {
          const native = trx
            .raw(statement, bindings as never)
            .toSQL()
            .toNative();
          await trx.raw(`PREPARE generic_plan AS ${native.sql}`);
          await trx.raw("SET LOCAL plan_cache_mode = 'force_generic_plan'");
          // EXECUTE's arguments as literals: a parameter there would be bound to the EXPLAIN, not the statement
          const args = native.bindings.map((b) => (trx.client as Knex.Client).raw('?', [b as Knex.RawBinding]).toQuery());
          explain = `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE generic_plan(${args.join(', ')})`;
        }
        plan = ((await trx.raw(explain, o.generic ? [] : (bindings as never))).rows as { 'QUERY PLAN': [{ Plan: PlanNode }] }[])[0]!['QUERY PLAN'][0].Plan;
        if (o.generic) await trx.raw('DEALLOCATE generic_plan');
        throw undo;
      })
      .catch((e) => {
        if (e !== undo) throw e;
      });
    return plan!;
  }
});
