// A batched read by keys reads only the rows it names, however much the
// workspace grew since the connection first sent it. The service's pool names
// the statements it repeats (src/platform/db/prepared.ts), and Postgres then
// keeps one generic plan per connection, costed with the table as it was. Made
// while the workspace held three rows, that plan read every row of the workspace
// through an index on the workspace alone and filtered the keys: a group of 22
// starts read 22,000 contacts (6.7 ms instead of 0.2), and the answers of a
// group of 30 writes read the whole workspace's conversations
// (bench/results/profile-12.md, ninth round). These statements are planned on
// every call instead. The check is what Postgres runs for the statement on the
// service's own connection, as the workspace's role, after the growth.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { BY_EXTERNAL_IDS_AND_EMAILS } from '../../src/capabilities/contacts/contacts.read.js';
import { ConversationAnswers } from '../../src/capabilities/conversations/index.js';
import { conversationsWithPartsQuery, partsWithConversations } from '../../src/capabilities/conversations/conversations.read.js';
import { TENANT_ROLE } from '../../src/platform/db/tenant-scope.js';
import { createChannel } from '../support/channels.js';
import { rowsRead, scansOf, type PlanNode } from '../support/plans.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

describe('batched reads by keys are planned with the workspace as it is', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService('planned_per_call');
  });
  after(() => t?.close());

  /**
   * Sends `statement` as a busy workspace does, on one of the service's pooled connections as the workspace's role
   * (ten times: past the naming threshold and the five custom plans Postgres tries before a generic one); lets the
   * workspace grow by `grow` (committed by another connection, no ANALYZE after); runs it once more (`check` sees
   * its rows) and returns the plan this connection runs for it then (its prepared statement's if it named it, else
   * one made now), with the prepared statements it keeps for it (none, when planned per call).
   */
  async function planAfterGrowth(
    owner: Member,
    statement: { sql: string; bindings: unknown[] },
    grow: () => Promise<unknown>,
    check: (rows: Record<string, unknown>[]) => void,
  ): Promise<{ plan: PlanNode; prepared: string[] }> {
    return t.service.deps.db.transaction(async (trx) => {
      await trx.raw("SELECT set_config('role', ?, true), set_config('app.tenant_id', ?, true)", [TENANT_ROLE, owner.workspaceId]);
      const run = () => trx.raw(statement.sql, statement.bindings as Knex.RawBinding[]);
      for (let i = 0; i < 10; i++) await run();
      await grow();
      check((await run()).rows);
      // The text as the connection received it ($n placeholders), to find its prepared statement.
      let n = 0;
      const sent = statement.sql.replace(/\?/g, () => `$${++n}`);
      const prepared = (await trx.raw('SELECT name, parameter_types::text[] AS types FROM pg_prepared_statements WHERE statement = ?', [sent])).rows as {
        name: string;
        types: string[];
      }[];
      let explained;
      if (prepared.length > 0) {
        // EXECUTE takes no bind parameters: its arguments are written out as literals of the statement's types.
        const { name, types } = prepared[0]!;
        const args = statement.bindings.map((b, i) => `${(trx.client as Knex.Client).raw('?', [b as Knex.RawBinding]).toQuery()}::${types[i]}`);
        explained = await trx.raw(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}(${args.join(', ')})`);
      } else {
        explained = await trx.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`, statement.bindings as Knex.RawBinding[]);
      }
      return { plan: (explained.rows as { 'QUERY PLAN': [{ Plan: PlanNode }] }[])[0]!['QUERY PLAN'][0].Plan, prepared: prepared.map((p) => p.name) };
    });
  }

  /** A new workspace with `count` conversations started through the API, and its channel. */
  async function workspaceWithConversations(count: number): Promise<{ owner: Member; channelId: string; made: string[] }> {
    const owner = await newWorkspace(t);
    const key = (await mintKey(t, owner, ['conversations:write'])).secret;
    const channelId = (await createChannel(t, owner)).id;
    const made: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await t.client.post('/api/conversations', { channel_id: channelId, body: `Hello ${i}`, contact: { email: `a${i}@example.com` } }, { key });
      expect(res.status, res.text).to.equal(201);
      made.push(res.body.id);
    }
    return { owner, channelId, made };
  }

  /** The workspace grows by 3,000 conversations, committed by another connection (no ANALYZE after). */
  const growConversations = (owner: Member, channelId: string) =>
    t.testDb.db.raw(
      `INSERT INTO conversations (tenant_id, id, channel_id, contact_id, subject, state, parts_count, created_at, updated_at, last_part_at)
       SELECT ?::uuid, gen_random_uuid(), ?::uuid, gen_random_uuid(), 'Order ' || g, 'open', 0, now(), now(), now() FROM generate_series(1, 3000) g`,
      [owner.workspaceId, channelId],
    );

  it("a group's contact lookup (by external_id and e-mail) reads the asked contacts, not the 3,000 the workspace grew to", async () => {
    // The statistics count another workspace and not this one (as a workspace made since the last ANALYZE): Postgres
    // estimated it at one row, and each key's lookup read the workspace through another index on it.
    const other = await newWorkspace(t);
    await t.testDb.db.raw(
      `INSERT INTO contacts (tenant_id, id, external_id, email, name, created_at, updated_at)
       SELECT ?::uuid, gen_random_uuid(), 'o-' || g, 'o' || g || '@example.com', 'O', now(), now() FROM generate_series(1, 3000) g`,
      [other.workspaceId],
    );
    await t.testDb.db.raw('ANALYZE contacts');
    const owner = await newWorkspace(t);
    const key = (await mintKey(t, owner, ['contacts:write'])).secret;
    for (let i = 0; i < 3; i++) {
      const res = await t.client.post('/api/contacts', { email: `c${i}@example.com`, external_id: `c-${i}`, name: `C ${i}` }, { key });
      expect(res.status, res.text).to.equal(201);
    }
    // As many starts as a busy group holds: c-0 and c-1 by external_id, c-2 by e-mail, and 17 new contacts.
    const n = 20;
    const ids = ['c-0', 'c-1', ...Array.from({ length: n - 2 }, (_, i) => `new-${i}`)];
    const emails = ['c0@example.com', 'c1@example.com', 'c2@example.com', ...Array.from({ length: n - 3 }, (_, i) => `new${i}@example.com`)];
    const { plan, prepared } = await planAfterGrowth(
      owner,
      { sql: BY_EXTERNAL_IDS_AND_EMAILS, bindings: [ids, owner.workspaceId, ids, emails, owner.workspaceId] },
      () =>
        t.testDb.db.raw(
          `INSERT INTO contacts (tenant_id, id, external_id, email, name, created_at, updated_at)
           SELECT ?::uuid, gen_random_uuid(), 'g-' || g, 'g' || g || '@example.com', 'G', now(), now() FROM generate_series(1, 3000) g`,
          [owner.workspaceId],
        ),
      (rows) =>
        expect(rows.map((r) => [r.i, r.via, r.external_id]).sort()).to.deep.equal([
          [1, 'external_id', 'c-0'],
          [2, 'external_id', 'c-1'],
          [3, 'email', 'c-2'],
        ]),
    );
    const scans = scansOf(plan, 'contacts');
    expect(scans, JSON.stringify(plan)).to.have.length(2);
    // Twenty keys by external_id and twenty by e-mail: a row or two each; a plan on the workspace alone reads 3,003 per key.
    expect(rowsRead(plan, 'contacts'), `contact rows read for ${2 * n} keys: ${JSON.stringify(scans)}`).to.be.at.most(2 * 2 * n);
    expect(prepared, 'prepared statements the connection keeps for it').to.deep.equal([]);
  });

  it("a group's answers (conversations with their parts) read the answered conversations, not the 3,000 the workspace grew to", async () => {
    const { owner, channelId, made } = await workspaceWithConversations(3);
    // As many answers as a busy group reads: the three made, and 17 ids of conversations that do not exist (yet).
    const n = 20;
    const ids = [...made, ...Array.from({ length: n - 3 }, () => crypto.randomUUID())];
    const { plan, prepared } = await planAfterGrowth(
      owner,
      // The statement as the service sends it: with the columns other capabilities add (the rating).
      conversationsWithPartsQuery(owner.workspaceId, ids, ConversationAnswers.of(t.service.deps.additions)),
      () => growConversations(owner, channelId),
      (rows) => expect(rows.map((r) => r.id).sort()).to.deep.equal([...made].sort()),
    );
    const scans = scansOf(plan, 'conversations');
    expect(scans, JSON.stringify(plan)).to.have.length(1);
    // Twenty ids: a row each at most; a plan on the workspace alone reads 3,003.
    expect(rowsRead(plan, 'conversations'), `conversation rows read for ${n} ids: ${JSON.stringify(scans)}`).to.be.at.most(2 * n);
    // Whatever plan the connection happened to keep, it must plan this read for the workspace as it is.
    expect(prepared, 'prepared statements the connection keeps for it').to.deep.equal([]);
  });

  // A group's answers of a few conversations are read as probes of the primary key, a statement per padded size
  // (keySlots): Postgres keeps its generic plan, made here while the workspace held three rows, and it still reads
  // each asked row by the key. The blocks read tell it apart from a plan that takes another index on the workspace
  // and filters the ids in the index's own condition (conversations_by_contact: every entry of the workspace read,
  // while the rows counted stay three).
  for (const n of [2, 5, 16]) {
    it(`a group's answers of ${n} conversations keep one plan, and it probes each by its key however the workspace grew`, async () => {
      const { owner, channelId, made } = await workspaceWithConversations(Math.min(n, 3));
      const ids = [...made, ...Array.from({ length: n - made.length }, () => crypto.randomUUID())];
      const { plan, prepared } = await planAfterGrowth(
        owner,
        conversationsWithPartsQuery(owner.workspaceId, ids, ConversationAnswers.of(t.service.deps.additions)),
        () => growConversations(owner, channelId),
        (rows) => expect(rows.map((r) => r.id).sort()).to.deep.equal([...made].sort()),
      );
      expect(prepared, 'prepared statements the connection keeps for it').to.have.length(1);
      const scans = scansOf(plan, 'conversations');
      expect(
        scans.map((s) => s['Index Name']),
        JSON.stringify(scans),
      ).to.satisfy((names: unknown[]) => names.length > 0 && names.every((name) => name === 'conversations_pkey'));
      // A probe of a two-level index is a few blocks; the workspace's 3,003 entries of another index are dozens.
      const blocks = scans.reduce((sum, s) => sum + (s['Shared Hit Blocks'] ?? 0) + (s['Shared Read Blocks'] ?? 0), 0);
      expect(blocks, `blocks read for ${n} ids: ${JSON.stringify(scans)}`).to.be.at.most(4 * n);
    });
  }

  it("a reply group's 5 answers keep one plan, and it probes each conversation by its key however the workspace grew", async () => {
    // The parts are named as rows of scalars padded to a kept plan's size (keySlots), each conversation looked up by
    // the whole key in a lateral subquery.
    const { owner, channelId } = await workspaceWithConversations(3);
    const parts = await t.testDb.db.raw('SELECT conversation_id, id FROM conversation_parts WHERE tenant_id = ?', [owner.workspaceId]);
    const made = (parts.rows as { conversation_id: string; id: string }[]).map((r) => ({ conversationId: r.conversation_id, partId: r.id }));
    expect(made).to.have.length(3);
    const wanted = [...made, ...Array.from({ length: 2 }, () => ({ conversationId: crypto.randomUUID(), partId: crypto.randomUUID() }))];
    let sent: { sql: string; bindings: unknown[] } | undefined;
    const capture = (q: { sql: string; bindings?: unknown[] }) => {
      if (/FROM \(VALUES/.test(q.sql)) sent = { sql: q.sql.replace(/\$\d+/g, '?'), bindings: q.bindings ?? [] };
    };
    t.testDb.db.on('query', capture);
    try {
      await partsWithConversations(t.testDb.db, owner.workspaceId, wanted, ConversationAnswers.of(t.service.deps.additions));
    } finally {
      t.testDb.db.off('query', capture);
    }
    expect(sent, 'the statement partsWithConversations sends').to.not.equal(undefined);
    const { plan, prepared } = await planAfterGrowth(
      owner,
      sent!,
      () => growConversations(owner, channelId),
      (rows) => expect(rows.map((r) => r.wanted_part).sort()).to.deep.equal(made.map((m) => m.partId).sort()),
    );
    expect(prepared, 'prepared statements the connection keeps for it').to.have.length(1);
    const scans = scansOf(plan, 'conversations');
    expect(
      scans.map((s) => s['Index Name']),
      JSON.stringify(scans),
    ).to.deep.equal(['conversations_pkey']);
    const blocks = scans.reduce((sum, s) => sum + (s['Shared Hit Blocks'] ?? 0) + (s['Shared Read Blocks'] ?? 0), 0);
    expect(blocks, `blocks read for 5 answers: ${JSON.stringify(scans)}`).to.be.at.most(4 * 8);
  });
});
