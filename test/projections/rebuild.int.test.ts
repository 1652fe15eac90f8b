// A rebuild from the log yields read models identical, row for row, to the
// ones the live service projected inline; and the checkpoint guard makes
// re-applying events a no-op.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { StoredEvent } from '../../src/eventstore/envelope.js';
import { ProjectionGap } from '../../src/projections/engine.js';
import { rebuildReadModels } from '../../src/projections/rebuild.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { databaseUrl } from '../support/db.js';
import pg from 'pg';

type Snapshot = Record<string, Record<string, unknown>[]>;

async function primaryKey(db: Knex, table: string): Promise<string[]> {
  const res = await db.raw(
    `SELECT a.attname AS name
       FROM pg_index i
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[])
      WHERE i.indrelid = ?::regclass AND i.indisprimary
      ORDER BY array_position(i.indkey::int2[], a.attnum)`,
    [table],
  );
  const cols = (res.rows as { name: string }[]).map((r) => r.name);
  if (cols.length === 0) throw new Error(`read-model table ${table} has no primary key to order by`);
  return cols;
}

async function snapshot(db: Knex, tables: string[]): Promise<Snapshot> {
  const out: Snapshot = {};
  for (const t of tables) {
    const pk = await primaryKey(db, t);
    out[t] = await db(t)
      .select('*')
      .orderBy(pk.map((column) => ({ column, order: 'asc' as const })));
  }
  return out;
}

/** Every index of the tables as Postgres would recreate it, sorted: what a rebuild must leave as it found. */
async function indexDefinitions(db: Knex, tables: string[]): Promise<string[]> {
  const res = await db.raw(
    `SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = ANY (SELECT to_regclass(t)::oid FROM unnest(?::text[]) t) ORDER BY 1`,
    [tables],
  );
  return (res.rows as { def: string }[]).map((r) => r.def);
}

async function readWholeLog(t: TestService): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  let after: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const r = await t.service.deps.store.readAll(after, 500);
    if (r.events.length === 0) return all;
    all.push(...r.events);
    after = r.checkpoint;
  }
  throw new Error('log did not end within 1000 pages');
}

/**
 * Contacts through the API: identities handed from one contact to another (which a
 * rebuild folds into one statement), attributes merged, archive and unarchive,
 * company links made, undone and dropped with their company, and an erasure.
 */
async function contactActivity(t: TestService, owner: Member, as: { key: string }): Promise<void> {
  const { client } = t;
  const ok = async (r: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    return a.body;
  };
  const company = (id: string) => ok(client.post('/api/companies', { company_id: `contacts-${id}`, name: id }, as), 201);
  const [north, south, doomed] = [await company('north'), await company('south'), await company('doomed')];
  const made: { id: string }[] = [];
  for (let i = 0; i < 8; i++) {
    made.push(
      await ok(
        client.post('/api/contacts', { external_id: `x-${i}`, email: `c${i}@example.com`, name: `C ${i}`, custom_attributes: { n: i, tier: 'a' } }, as),
        201,
      ),
    );
  }
  const [a, b, c, d, e] = made as [{ id: string }, { id: string }, { id: string }, { id: string }, { id: string }];
  // a gives up its external_id and e-mail, and a new contact takes both
  await ok(client.put(`/api/contacts/${a.id}`, { external_id: 'x-0-moved', email: 'moved@example.com', custom_attributes: { tier: null, moved: true } }, as));
  made.push(await ok(client.post('/api/contacts', { external_id: 'x-0', email: 'C0@example.com', phone: '+1555' }, as), 201));
  // d takes the external_id c gives up (two patches of one shape: one UPDATE in a rebuild)
  await ok(client.put(`/api/contacts/${d.id}`, { external_id: 'x-3-moved' }, as));
  await ok(client.put(`/api/contacts/${c.id}`, { external_id: 'x-2-moved' }, as));
  await ok(client.put(`/api/contacts/${d.id}`, { external_id: 'x-2' }, as));
  await ok(client.put(`/api/contacts/${b.id}`, { name: null, phone: '+1666' }, as));
  for (const x of [b, c]) await ok(client.post(`/api/contacts/${x.id}/archive`, undefined, as));
  await ok(client.post(`/api/contacts/${c.id}/unarchive`, undefined, as));
  for (const [x, co] of [
    [a, north],
    [a, south],
    [b, north],
    [c, doomed],
    [d, doomed],
    [d, south],
    [e, north],
  ] as const) {
    await ok(client.post(`/api/contacts/${x.id}/companies`, { company_id: co.id }, as));
  }
  await ok(client.delete(`/api/contacts/${a.id}/companies/${north.id}`, as));
  await ok(client.delete(`/api/companies/${doomed.id}`, as));
  // and an erasure of a contact that belongs to a company
  const eraser = { key: (await mintKey(t, owner, ['contacts:delete'])).secret };
  await ok(client.delete(`/api/contacts/${e.id}`, eraser));
}

/**
 * Saved replies: created, changed, deleted, and a name handed from one reply to another (a rename
 * and a create that a rebuild folds into one batch; the read model's name index is not unique).
 */
async function savedReplyActivity(t: TestService, owner: Member): Promise<void> {
  const as = { key: (await mintKey(t, owner, ['settings:write', 'conversations:read'])).secret };
  const ok = async (r: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    return a.body;
  };
  const made: { id: string }[] = [];
  for (let i = 0; i < 5; i++)
    made.push(await ok(t.client.post('/api/saved-replies', { name: `Reply ${i}`, body: `Hi {{contact.name | fallback: "there"}}, #${i}` }, as), 201));
  const [a, b, c] = made as [{ id: string }, { id: string }, { id: string }];
  await ok(t.client.put(`/api/saved-replies/${a.id}`, { name: 'Reply 0 renamed' }, as));
  await ok(t.client.post('/api/saved-replies', { name: 'reply 0', body: 'took the name' }, as), 201);
  await ok(t.client.put(`/api/saved-replies/${b.id}`, { body: '{{member.name}} on {{conversation.id}}' }, as));
  await ok(t.client.put(`/api/saved-replies/${b.id}`, { name: 'Reply 1 again', body: 'and again' }, as));
  await ok(t.client.delete(`/api/saved-replies/${c.id}`, as));
  await ok(t.client.post('/api/saved-replies', { name: 'Reply 2', body: 'reused after delete' }, as), 201);
}

/**
 * Teams through the API: created, renamed (one takes a deleted team's name),
 * rosters replaced and moved between teams in one command, and a team deleted
 * while conversations and a channel name it (team.deleted unassigns them).
 */
async function teamActivity(t: TestService, owner: Member, memberIds: string[]): Promise<void> {
  const { client } = t;
  const as = { key: (await mintKey(t, owner, ['members:read', 'members:invite', 'conversations:write', 'settings:write'])).secret };
  const ok = async (r: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    return a.body;
  };
  const [red, blue, doomed] = [
    await ok(client.post('/api/teams', { name: 'Red' }, as), 201),
    await ok(client.post('/api/teams', { name: 'Blue' }, as), 201),
    await ok(client.post('/api/teams', { name: 'Doomed' }, as), 201),
  ];
  await ok(client.put(`/api/teams/${red.id}/members`, { member_ids: memberIds }, as));
  await ok(client.put(`/api/teams/${doomed.id}/members`, { member_ids: memberIds.slice(0, 1) }, as));
  await ok(
    client.post(
      '/api/teams/rosters',
      {
        teams: [
          { team_id: red.id, member_ids: memberIds.slice(1) },
          { team_id: blue.id, member_ids: memberIds.slice(0, 1) },
        ],
      },
      as,
    ),
  );
  const ch = await ok(
    client.post('/api/channels', { kind: 'api', name: 'Team bridge', default_team_id: doomed.id, webhook_secret: 'team-bridge-secret-0123456789' }, as),
    201,
  );
  const threads = [];
  for (let i = 0; i < 3; i++)
    threads.push(
      (await ok(postInbound(t, ch.id, 'team-bridge-secret-0123456789', inboundBody({ contact: { external_id: `team-${i}-${owner.workspaceId}` } })), 201))
        .conversation_id,
    );
  await ok(client.post(`/api/conversations/${threads[0]}/parts`, { message_type: 'assignment', team_id: red.id }, as), 201);
  await ok(client.delete(`/api/teams/${doomed.id}`, as));
  await ok(client.put(`/api/teams/${blue.id}`, { name: 'doomed' }, as));
}

/**
 * Views: workspace and private, their queries, names and sort changed, a workspace view made private
 * (it changes owner), one deleted.
 */
async function viewActivity(t: TestService, owner: Member): Promise<void> {
  const as = { key: (await mintKey(t, owner, ['settings:write', 'conversations:read'])).secret };
  const ok = async (r: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    return a.body;
  };
  const open = { field: 'state', operator: '=', value: 'open' };
  const made: { id: string }[] = [];
  for (let i = 0; i < 4; i++)
    made.push(await ok(t.client.post('/api/views', { name: `View ${i}`, query: open, visibility: i % 2 ? 'private' : 'workspace' }, as), 201));
  const [a, b, c] = made as [{ id: string }, { id: string }, { id: string }];
  await ok(
    t.client.put(
      `/api/views/${a.id}`,
      { name: 'View 0 renamed', query: { operator: 'OR', value: [open, { field: 'body', operator: '~', value: 'refund' }] }, sort: 'created_at', order: 'asc' },
      as,
    ),
  );
  await ok(t.client.put(`/api/views/${b.id}`, { visibility: 'workspace' }, as));
  await ok(t.client.put(`/api/views/${a.id}`, { visibility: 'private' }, as));
  await ok(t.client.delete(`/api/views/${c.id}`, as));
}

/**
 * Views of members about to be removed (a viewer, and an admin): private ones, one changed and one a workspace
 * view the admin made private, go with them (the views projector deletes by owner, and a rebuild's batches
 * fold the removal with the views' own events); the workspace view the admin made stays.
 */
async function leavingViewActivity(t: TestService, owner: Member, viewer: Member, admin: Member): Promise<void> {
  const ok = async (r: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    return a.body;
  };
  const open = { field: 'state', operator: '=', value: 'open' };
  const [asViewer, asAdmin] = [viewer, admin].map((m) => ({ cookie: m.cookie, workspace: m.workspaceId }));
  const p1 = await ok(t.client.post('/api/views', { name: 'Leaving 1', query: open }, asViewer), 201);
  await ok(t.client.post('/api/views', { name: 'Leaving 2', query: open }, asAdmin), 201);
  await ok(t.client.post('/api/views', { name: 'Leaving shared', query: open, visibility: 'workspace' }, asAdmin), 201);
  const taken = await ok(
    t.client.post('/api/views', { name: 'Taken private', query: open, visibility: 'workspace' }, { cookie: owner.cookie, workspace: owner.workspaceId }),
    201,
  );
  await ok(t.client.put(`/api/views/${taken.id}`, { visibility: 'private' }, asAdmin));
  await ok(t.client.put(`/api/views/${p1.id}`, { name: 'Leaving 1 renamed' }, asViewer));
}

/**
 * Tags: a catalog created, renamed and one tag deleted while conversations and contacts carry it;
 * conversations and contacts tagged, untagged and re-tagged (deltas a rebuild folds into one batch).
 */
async function tagActivity(t: TestService, owner: Member, conversationIds: string[]): Promise<void> {
  const as = { key: (await mintKey(t, owner, ['settings:write', 'conversations:write', 'contacts:write', 'contacts:read'])).secret };
  const ok = async (r: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    return a.body;
  };
  const [red, blue, doomed] = [
    await ok(t.client.post('/api/tags', { name: 'Red' }, as), 201),
    await ok(t.client.post('/api/tags', { name: 'Blue' }, as), 201),
    await ok(t.client.post('/api/tags', { name: 'Doomed' }, as), 201),
  ];
  const k = await ok(t.client.post('/api/contacts', { email: `tagged-${owner.workspaceId}@example.com` }, as), 201);
  for (const c of conversationIds) for (const x of [red, doomed, blue]) await ok(t.client.post(`/api/conversations/${c}/tags`, { tag_id: x.id }, as));
  await ok(t.client.delete(`/api/conversations/${conversationIds[0]}/tags/${red.id}`, as));
  await ok(t.client.post(`/api/conversations/${conversationIds[0]}/tags`, { tag_id: red.id }, as)); // back, at the end
  await ok(t.client.delete(`/api/conversations/${conversationIds[1]}/tags/${blue.id}`, as));
  for (const x of [blue, doomed]) await ok(t.client.post(`/api/contacts/${k.id}/tags`, { tag_id: x.id }, as));
  await ok(t.client.put(`/api/tags/${red.id}`, { name: 'Crimson' }, as));
  await ok(t.client.delete(`/api/tags/${doomed.id}`, as));
}

/**
 * Outbound collections: drafts created, changed and deleted; one sent (the worker starts a conversation per
 * recipient; an archived contact skipped, one without external_id failed), one scheduled, one cancelled.
 */
async function outboundActivity(t: TestService, owner: Member): Promise<void> {
  const as = { key: (await mintKey(t, owner, ['settings:read', 'settings:write', 'conversations:write', 'contacts:write'])).secret };
  const ok = async (r: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    return a.body;
  };
  const ch = await createChannel(t, owner, { name: 'Outbound bridge' });
  const people: string[] = [];
  for (let i = 0; i < 4; i++)
    people.push(
      (await ok(t.client.post('/api/contacts', { ...(i === 3 ? {} : { external_id: `out-${i}` }), name: `Out ${i}`, email: `out${i}@example.com` }, as), 201))
        .id,
    );
  await ok(t.client.post(`/api/contacts/${people[2]}/archive`, undefined, as));
  const make = (name: string, extra: Record<string, unknown> = {}) =>
    ok(t.client.post('/api/outbound', { name, channel_id: ch.id, body: 'Hi {{contact.name}}', audience: { contact_ids: people }, ...extra }, as), 201);
  const sent = await make('Sent');
  await ok(t.client.put(`/api/outbound/${sent.id}`, { subject: 'News', body: 'Hello {{contact.name | fallback: "you"}}' }, as));
  await ok(t.client.post(`/api/outbound/${sent.id}/send`, undefined, as));
  const doomed = await make('Deleted');
  await ok(t.client.delete(`/api/outbound/${doomed.id}`, as));
  const later = await make('Later', { send_at: new Date(t.clock.now().getTime() + 86_400_000).toISOString() });
  await ok(t.client.post(`/api/outbound/${later.id}/send`, undefined, as));
  const cancelled = await make('Cancelled', { send_at: new Date(t.clock.now().getTime() + 86_400_000).toISOString() });
  await ok(t.client.post(`/api/outbound/${cancelled.id}/send`, undefined, as));
  await ok(t.client.post(`/api/outbound/${cancelled.id}/cancel`, undefined, as));
  const start = Date.now();
  for (let i = 0; i < 300; i++) {
    if ((await ok(t.client.get(`/api/outbound/${sent.id}`, as))).state === 'sent') return;
    if (Date.now() - start > 20_000) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the outbound collection was not sent in time');
}

describe('projections: rebuild', function () {
  this.timeout(120_000);
  let t: TestService;
  let tables: string[];

  before(async () => {
    t = await startTestService('rebuild');
    tables = t.service.engine.tables();
    const { client } = t;

    // Varied activity, all through the HTTP API (workspaces the way the CLI makes them).
    const owners: Member[] = [await newWorkspace(t, 'Alpha'), await newWorkspace(t, 'Beta'), await newWorkspace(t, 'Gamma')];
    for (const [w, owner] of owners.entries()) {
      const as = { cookie: owner.cookie, workspace: owner.workspaceId };
      const agent = await addMember(t, owner, 'agent');
      const admin = await addMember(t, owner, 'admin');
      const viewer = await addMember(t, owner, 'viewer');
      // pending invites that are never accepted
      for (let i = 0; i < 3; i++) {
        const r = await client.post('/api/members/invites', { email: `pending${i}-w${w}@example.com`, role: i % 2 ? 'viewer' : 'agent' }, as);
        expect(r.status, r.text).to.equal(201);
      }
      // role changes: promote the agent, demote then re-promote the admin
      for (const [id, role] of [
        [agent.memberId, 'admin'],
        [admin.memberId, 'viewer'],
        [admin.memberId, 'admin'],
      ] as const) {
        const r = await client.put(`/api/members/${id}`, { role }, as);
        expect(r.status, r.text).to.equal(200);
      }
      // keys: the owner's and the admin's, rotated and revoked
      const k1 = await mintKey(t, owner, ['members:read', 'members:invite'], 'integration');
      const k2 = await mintKey(t, owner, ['conversations:read'], 'reader');
      const k3 = await mintKey(t, admin, ['members:read'], 'admin tool');
      await mintKey(t, agent, ['members:read'], 'agent tool'); // the agent is an admin by now
      expect((await client.post(`/api/keys/${k1.id}/rotate`, undefined, as)).status).to.equal(200);
      expect((await client.post(`/api/keys/${k1.id}/rotate`, undefined, as)).status).to.equal(200);
      expect((await client.delete(`/api/keys/${k2.id}`, as)).status).to.equal(200);
      expect((await client.post(`/api/keys/${k3.id}/rotate`, undefined, { cookie: admin.cookie, workspace: admin.workspaceId })).status).to.equal(200);
      // a key-authenticated write, then removals (the viewer, and the agent whose key stays in the table)
      const viaKey = await client.post(
        '/api/members/invites',
        { email: `bykey-w${w}@example.com`, role: 'viewer' },
        { key: (await mintKey(t, owner, ['members:invite'])).secret },
      );
      expect(viaKey.status, viaKey.text).to.equal(201);
      await leavingViewActivity(t, owner, viewer, agent);
      expect((await client.delete(`/api/members/${viewer.memberId}`, as)).status).to.equal(200);
      expect((await client.delete(`/api/members/${agent.memberId}`, as)).status).to.equal(200);
      // companies: created, changed (attributes merged and removed), one deleted and its company_id reused
      const companies = { key: (await mintKey(t, owner, ['contacts:read', 'contacts:write'])).secret };
      for (let i = 0; i < 4; i++) {
        const c = await client.post(
          '/api/companies',
          { company_id: `co-${i}`, name: `Co ${i}`, size: i * 10, custom_attributes: { tier: 'a', n: i } },
          companies,
        );
        expect(c.status, c.text).to.equal(201);
        const u = await client.put(`/api/companies/${c.body.id}`, { plan: 'pro', custom_attributes: { tier: null, region: `r${i}` } }, companies);
        expect(u.status, u.text).to.equal(200);
        if (i === 0) {
          expect((await client.delete(`/api/companies/${c.body.id}`, companies)).status).to.equal(200);
          expect((await client.post('/api/companies', { company_id: 'co-0', name: 'Co 0 again' }, companies)).status).to.equal(201);
        }
      }
      // conversations over a channel, then erasures: a redacted part, an unsent comment, an erased
      // contact (with two conversations) and an erased member. A rebuild opens what their keys no
      // longer open as null, and must land exactly where the live projections did.
      const ch = await createChannel(t, owner);
      const work = { key: (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'conversations:delete', 'contacts:delete'])).secret };
      const threads = [];
      for (const c of ['keep', 'erase', 'erase']) {
        const r = await postInbound(
          t,
          ch.id,
          ch.secret,
          inboundBody({ contact: { external_id: `${c}-w${w}`, name: `${c} person`, email: `${c}-w${w}@example.com` }, content: `hello from ${c}` }),
        );
        expect(r.status, r.text).to.equal(201);
        threads.push(r.body);
        const reply = await client.post(
          `/api/conversations/${r.body.conversation_id}/reply`,
          { message_type: 'comment', body: `reply to ${c}`, attachments: [{ url: 'https://files.example/a.png' }] },
          work,
        );
        expect(reply.status, reply.text).to.equal(201);
      }
      const redact = await client.post(`/api/conversations/${threads[0].conversation_id}/parts/${threads[0].part_id}/redact`, undefined, work);
      expect(redact.status, redact.text).to.equal(200);
      const comment = await client.post(`/api/conversations/${threads[0].conversation_id}/reply`, { message_type: 'comment', body: 'oops' }, work);
      expect((await client.post(`/api/conversations/${threads[0].conversation_id}/parts/${comment.body.id}/unsend`, undefined, work)).status).to.equal(200);
      // Notes: on the contact about to be erased (the erasure deletes them, in the same rebuild batch as their
      // inserts) and on the kept one (one of them deleted).
      const notes = { key: (await mintKey(t, owner, ['contacts:read', 'contacts:write'])).secret };
      const noted: string[] = [];
      for (const [i, c] of [threads[1].contact_id, threads[0].contact_id, threads[0].contact_id].entries()) {
        const n = await client.post(`/api/contacts/${c}/notes`, { body: `note ${i}` }, notes);
        expect(n.status, n.text).to.equal(201);
        noted.push(n.body.id);
      }
      expect((await client.delete(`/api/contacts/${threads[0].contact_id}/notes/${noted[1]}`, notes)).status).to.equal(200);
      // Uploads: one attached on the kept contact's conversation, one on the one about to be erased, one on nothing.
      const uploaded: string[] = [];
      for (const name of ['kept.txt', 'erased.txt', 'loose.txt']) {
        const u = await client.post(`/api/uploads?filename=${name}`, undefined, { ...work, bytes: Buffer.from(`file ${name}`) });
        expect(u.status, u.text).to.equal(201);
        uploaded.push(u.body.id);
      }
      for (const [i, thread] of [threads[0], threads[1]].entries()) {
        const r = await client.post(
          `/api/conversations/${thread.conversation_id}/reply`,
          { message_type: 'note', body: 'file', upload_ids: [uploaded[i]] },
          work,
        );
        expect(r.status, r.text).to.equal(201);
      }
      // A merge of one customer's two threads: the source closed and pointing at the target, which gets a merged part.
      const merging = [];
      for (const x of ['merge-a', 'merge-b']) {
        const r = await postInbound(
          t,
          ch.id,
          ch.secret,
          inboundBody({ external_id: `${x}-${owner.workspaceId}`, contact: { external_id: 'merging' }, content: x }),
        );
        expect(r.status, r.text).to.equal(201);
        merging.push(r.body.conversation_id as string);
      }
      const merged = await client.post(`/api/conversations/${merging[0]}/merge`, { into: merging[1] }, work);
      expect(merged.status, merged.text).to.equal(200);
      const erase = await client.delete(`/api/contacts/${threads[1].contact_id}`, work);
      expect(erase.status, erase.text).to.equal(200);
      expect((await client.post(`/api/members/${viewer.memberId}/erase`, undefined, as)).status).to.equal(200);
      await contactActivity(t, owner, companies);
      await savedReplyActivity(t, owner);
      await teamActivity(t, owner, [owner.memberId, admin.memberId]);
      await viewActivity(t, owner);
      await tagActivity(t, owner, [threads[0].conversation_id, threads[2].conversation_id]);
      await outboundActivity(t, owner);
    }
  });
  after(async () => t?.close());

  it('rebuilds read models identical to the live ones', async () => {
    const db = t.service.deps.db;
    const live = await snapshot(db, tables);
    expect(live.workspaces, 'workspaces').to.have.length(3);
    expect(live.members?.length, 'members').to.be.greaterThan(3);
    expect(live.api_keys?.length, 'api_keys').to.be.greaterThan(3);
    expect(live.invites?.length, 'invites').to.be.greaterThan(3);
    expect(live.projection_checkpoints, 'checkpoints').to.have.length(3);
    // one note left of three per workspace: one deleted, one erased with its contact
    expect(live.contact_notes, 'contact_notes').to.have.length(3);
    // two uploads left of three per workspace, one attached: the third went with its erased contact
    expect(live.uploads, 'uploads').to.have.length(6);
    expect(live.uploads!.filter((u) => u.part_id !== null)).to.have.length(3);
    expect(live.conversations!.filter((c) => c.merged_into !== null)).to.have.length(3);
    // the activity really varied the rows
    expect(new Set(live.members!.map((m) => m.status))).to.deep.equal(new Set(['active', 'removed']));
    expect(new Set(live.api_keys!.map((k) => k.status))).to.deep.equal(new Set(['active', 'revoked']));
    expect(live.api_keys!.some((k) => k.rotated_at !== null)).to.equal(true);
    expect(new Set(live.invites!.map((i) => i.status))).to.deep.equal(new Set(['pending', 'accepted']));
    // and the erasures reached the read models
    expect(new Set(live.conversation_parts!.map((p) => p.redacted))).to.deep.equal(new Set([null, 'redacted', 'unsent', 'erased']));
    expect(live.contacts!.filter((c) => c.erased_at !== null)).to.have.length(6); // and one in each workspace's contact activity
    expect(live.members!.filter((m) => m.erased_at !== null && m.name === null)).to.have.length(3);
    // contacts: created, changed, archived, erased; attached to companies, some detached or gone with their company
    expect(live.contacts?.length, 'contacts').to.be.greaterThan(9);
    expect(
      live.contacts!.some((c) => c.archived_at !== null),
      'an archived contact',
    ).to.equal(true);
    expect(
      live.contacts!.some((c) => c.custom_attributes !== null && Object.keys(c.custom_attributes as object).length > 0),
      'custom attributes',
    ).to.equal(true);
    expect(live.contact_companies?.length, 'contact_companies').to.be.greaterThan(3);
    // teams: renamed, with rosters, one deleted with its conversations and channel unassigned
    expect(live.teams?.length, 'teams').to.equal(6);
    expect(
      live.teams!.some((x) => x.name === 'doomed' && (x.member_ids as string[]).length === 1),
      'a renamed team with its roster',
    ).to.equal(true);
    expect(live.conversations!.filter((c) => c.team_id !== null).length, 'conversations with a team').to.equal(3);
    expect(live.channels!.filter((c) => c.name === 'Team bridge' && c.default_team_id === null)).to.have.length(3);
    // tags: renamed, one deleted off conversations and a contact; conversations re-tagged in a new order
    expect(live.tags?.map((x) => x.name).sort(), 'tags').to.deep.equal(['Blue', 'Blue', 'Blue', 'Crimson', 'Crimson', 'Crimson']);
    expect(
      live.conversations!.filter((c) => (c.tag_ids as string[]).length === 2),
      'conversations with two tags left',
    ).to.have.length(3);
    expect(
      live.conversations!.filter((c) => (c.tag_ids as string[]).length === 1),
      'and with one',
    ).to.have.length(3);
    expect(
      live.contacts!.filter((c) => (c.tag_ids as string[]).length === 1),
      'a tagged contact',
    ).to.have.length(3);
    // saved replies: created, renamed, rewritten, deleted (6 left in each workspace)
    expect(live.saved_replies, 'saved_replies').to.have.length(18);
    expect(
      live.saved_replies!.filter((r) => r.name === 'Reply 1 again' && r.body === 'and again'),
      'changed saved replies',
    ).to.have.length(3);
    // outbound: a sent, a scheduled and a cancelled collection in each workspace, with the sent one's recipients
    expect(new Set(live.outbound_collections!.map((c) => c.state))).to.deep.equal(new Set(['sent', 'scheduled', 'cancelled']));
    expect(new Set(live.outbound_recipients!.map((r) => r.status))).to.deep.equal(new Set(['sent', 'skipped', 'failed']));
    expect(live.outbound_recipients!.filter((r) => r.status === 'sent')).to.have.length(6);
    // views: created, changed, made workspace and private, one deleted, a removed member's private ones gone
    // with them (4 left in each workspace: their workspace view stays)
    expect(live.views, 'views').to.have.length(12);
    expect(live.views!.filter((v) => String(v.name).startsWith('Leaving shared') && v.visibility === 'workspace')).to.have.length(3);
    const removed = new Set(live.members!.filter((m) => m.status === 'removed').map((m) => m.id));
    expect(
      live.views!.filter((v) => v.visibility === 'private' && removed.has(v.owner_member_id)),
      "a removed member's private views",
    ).to.deep.equal([]);
    expect(new Set(live.views!.map((v) => v.visibility))).to.deep.equal(new Set(['private', 'workspace']));
    expect(
      live.views!.filter((v) => v.name === 'View 0 renamed' && v.sort === 'created_at' && v.sort_order === 'asc' && v.visibility === 'private'),
      'changed views',
    ).to.have.length(3);

    const indexes = await indexDefinitions(db, tables);
    expect(
      indexes.some((d) => / USING gin /.test(d)),
      'the GIN indexes are among them',
    ).to.equal(true);
    // EventStoreDB cannot count its log (countAll is null): there the log is counted by reading it.
    const events = (await t.service.deps.store.countAll()) ?? (await readWholeLog(t)).length;
    // Small batches: many pages, and (batch sizes differing) other changes folded into one statement each time,
    // e.g. a contact giving up its external_id and another taking it, a company_id deleted and reused.
    for (const batchSize of [7, 2, 3, 5]) {
      const result = await rebuildReadModels(db, t.service.deps.store, t.service.engine, () => undefined, batchSize);
      expect(result.events).to.equal(events);

      const rebuilt = await snapshot(db, tables);
      for (const table of tables) expect(rebuilt[table], `table ${table} differs after rebuild (batches of ${batchSize})`).to.deep.equal(live[table]);
      expect(Object.keys(rebuilt)).to.deep.equal(Object.keys(live));
      // the secondary indexes it dropped for the replay are all back, as they were
      expect(await indexDefinitions(db, tables), `indexes after rebuild (batches of ${batchSize})`).to.deep.equal(indexes);
    }

    // and the service still answers from them
    const owner = await newWorkspace(t, 'After Rebuild');
    const r = await t.client.get('/api/members', { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(r.status, r.text).to.equal(200);
  });

  it('ignores events at or below the checkpoint: re-applying the whole log changes nothing', async () => {
    const db = t.service.deps.db;
    const before = await snapshot(db, tables);
    const log = await readWholeLog(t);
    expect(log.length).to.be.greaterThan(50);
    await db.transaction(async (trx) => {
      await t.service.engine.apply(trx, log);
      // and the log's tail once more, in the same transaction
      await t.service.engine.apply(trx, log.slice(-5));
    });
    expect(await snapshot(db, tables)).to.deep.equal(before);
  });

  it('replays the events an open transaction elsewhere in the cluster still hides, instead of stopping short of them', async () => {
    // A transaction in another database of the same cluster, open before the newest events were appended: the
    // global order shows a commit only once no older transaction is open, so those events are not readable yet.
    const elsewhere = new pg.Client({ connectionString: databaseUrl('postgres') });
    await elsewhere.connect();
    try {
      await elsewhere.query('BEGIN');
      await elsewhere.query('SELECT pg_current_xact_id()');
      const owner = await newWorkspace(t, 'Hidden');
      const key = (await mintKey(t, owner, ['contacts:write'])).secret;
      for (const name of ['Ada', 'Grace', 'Edsger']) expect((await t.client.post('/api/contacts', { external_id: name, name }, { key })).status).to.equal(201);
      const db = t.service.deps.db;
      const live = await snapshot(db, tables);
      const hidden = await t.service.deps.store.head(owner.workspaceId);
      // (With TEST_EVENT_STORE=eventstoredb the log is not in Postgres: an open transaction there hides nothing.)
      expect(
        (await readWholeLog(t)).filter((e) => e.tenant_id === owner.workspaceId),
        'hidden from the global order',
      ).to.have.length(t.service.deps.store.kind === 'postgres' ? 0 : hidden);
      // The rebuild replays what is readable and reads on; once it has been told "nothing more yet" (an empty page),
      // the other transaction ends. A rebuild that took the empty page for the end has finished short by then.
      const store = t.service.deps.store;
      let toldEmpty!: () => void;
      const emptyPage = new Promise<void>((resolve) => (toldEmpty = resolve));
      const watched = Object.assign(Object.create(store) as typeof store, {
        readAll: async (after: string | null, limit: number) => {
          const page = await store.readAll(after, limit);
          if (page.events.length === 0) toldEmpty();
          return page;
        },
      });
      const rebuild = rebuildReadModels(db, watched, t.service.engine);
      await emptyPage;
      await elsewhere.query('COMMIT');
      await rebuild;
      expect(await snapshot(db, tables)).to.deep.equal(live);
      expect(Number((await db('projection_checkpoints').where({ tenant_id: owner.workspaceId }).first())?.last_seq)).to.equal(hidden);
    } finally {
      await elsewhere.end();
    }
  });

  it('refuses an event that does not follow the checkpoint directly (a gap), writing nothing', async () => {
    const db = t.service.deps.db;
    const before = await snapshot(db, tables);
    const last = (await readWholeLog(t)).at(-1)!;
    const beyond: StoredEvent = {
      ...last,
      id: randomUUID(),
      seq: last.seq + 2,
      type: 'member.invited',
      aggregate_type: 'invite',
      aggregate_id: randomUUID(),
      payload: { invite_id: randomUUID(), email: 'gap@example.com', role: 'agent', invited_by: randomUUID(), expires_at: new Date().toISOString() },
    };
    let caught: unknown;
    await db.transaction((trx) => t.service.engine.apply(trx, [beyond])).catch((e) => (caught = e));
    expect(caught).to.be.instanceOf(ProjectionGap);
    expect(caught).to.include({ tenantId: last.tenant_id, checkpoint: last.seq, nextSeq: last.seq + 2 });
    expect(await snapshot(db, tables)).to.deep.equal(before);
  });
});
