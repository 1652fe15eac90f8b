// Custom views (GET/POST /api/views, GET/PUT/DELETE /api/views/{id}), listing a
// view's conversations (?view_id=) and the counts, as a caller sees them.
import { expect } from 'chai';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';
import { eventually } from '../support/events.js';
import { Receiver } from '../webhooks/receiver.js';
import { compileQuery, type SqlContext } from '../../src/platform/query/filter.js';
import { conversationSearch } from '../../src/capabilities/conversations/index.js';
import { MAX_PRIVATE_VIEWS, MAX_WORKSPACE_VIEWS } from '../../src/capabilities/views/views.decider.js';
import { ManualClock } from '../../src/platform/clock.js';
import { rebuildReadModels } from '../../src/projections/rebuild.js';

type Reply = { status: number; text: string; body: any };
const VIEW_EVENTS = ['view.created', 'view.updated', 'view.deleted'];

describe('views and counts', function () {
  this.timeout(180_000);
  let t: TestService;
  let owner: Member;
  let agent: Member;
  let key: string; // the owner's: settings:write
  let agentKey: string; // an agent's: no settings:write
  let adminKey: string; // an admin's: settings:write, not an owner
  let channelId: string;
  let receiver: Receiver;

  const ok = async (r: Promise<Reply>, status = 200) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    return a.body;
  };
  const failsWith = async (r: Promise<Reply>, status: number, code: string, field?: string) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    expect(a.body.type).to.equal('error.list');
    const e = field ? a.body.errors.find((x: { field?: string }) => x.field === field) : a.body.errors[0];
    expect(e, a.text).to.not.equal(undefined);
    expect(e.code, a.text).to.equal(code);
    return a.body;
  };
  const create = (body: Record<string, unknown>, k = key) => t.client.post('/api/views', body, { key: k });
  const openQ = { field: 'state', operator: '=', value: 'open' };
  const feed = async () =>
    (await ok(t.client.get(`/api/events?types=${VIEW_EVENTS.join(',')}&per_page=150`, { key }))).data as {
      seq: number;
      type: string;
      aggregate_id: string;
      payload: any;
    }[];
  /** Every conversation of a list, walking its cursors. */
  const listAll = async (qs: string, k = key) => {
    const out: string[] = [];
    let next: string | undefined;
    do {
      const page = await ok(t.client.get(`/api/conversations?per_page=150&${qs}${next ? `&starting_after=${next}` : ''}`, { key: k }));
      out.push(...page.data.map((c: { id: string }) => c.id));
      next = page.pages.next?.starting_after;
    } while (next);
    return out;
  };

  before(async () => {
    t = await startTestService('views', { env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } });
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['settings:write', 'conversations:read', 'conversations:write', 'events:read', 'members:invite', 'members:read'])).secret;
    agent = await addMember(t, owner, 'agent');
    agentKey = (await mintKey(t, agent, ['conversations:read', 'conversations:write'])).secret;
    adminKey = (await mintKey(t, await addMember(t, owner, 'admin'), ['conversations:read', 'settings:write'])).secret;
    channelId = (await createChannel(t, owner)).id;
    receiver = await new Receiver().start();
    await ok(t.client.post('/api/webhooks', { url: receiver.url, event_names: VIEW_EVENTS }, { key }), 201);
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('creates, reads, lists (no pages), changes and deletes views, with their events in the feed and at a webhook', async () => {
    const v = await ok(create({ name: 'Open billing', query: openQ, visibility: 'workspace', sort: 'created_at', order: 'asc' }), 201);
    expect(v).to.deep.include({
      type: 'view',
      name: 'Open billing',
      query: openQ,
      sort: 'created_at',
      order: 'asc',
      visibility: 'workspace',
      owner_member_id: null,
    });
    const mine = await ok(create({ name: 'Mine', query: { field: 'assignee_id', operator: '=', value: owner.memberId } }), 201);
    expect(mine).to.deep.include({ visibility: 'private', sort: 'updated_at', order: 'desc', owner_member_id: owner.memberId });
    expect(await ok(t.client.get(`/api/views/${v.id}`, { key }))).to.deep.equal(v);
    const list = await ok(t.client.get('/api/views', { key }));
    expect(Object.keys(list).sort()).to.deep.equal(['data', 'type']);
    expect(list.data.map((x: { id: string }) => x.id)).to.deep.equal([v.id, mine.id]);

    const q2 = { operator: 'OR', value: [openQ, { field: 'state', operator: '=', value: 'snoozed' }] };
    const changed = await ok(t.client.put(`/api/views/${v.id}`, { name: 'Open or snoozed', query: q2 }, { key }));
    expect(changed).to.deep.include({ id: v.id, name: 'Open or snoozed', query: q2, sort: 'created_at' });
    const before = (await feed()).length;
    await ok(t.client.put(`/api/views/${v.id}`, { name: 'Open or snoozed', query: q2, order: 'asc' }, { key }));
    expect((await feed()).length, 'an update that changes nothing appends nothing').to.equal(before);
    expect(await ok(t.client.delete(`/api/views/${v.id}`, { key }))).to.deep.equal({ type: 'view', id: v.id, deleted: true });
    for (const r of [
      t.client.get(`/api/views/${v.id}`, { key }),
      t.client.put(`/api/views/${v.id}`, { name: 'x' }, { key }),
      t.client.delete(`/api/views/${v.id}`, { key }),
    ])
      await failsWith(r, 404, 'not_found');
    await failsWith(t.client.get('/api/views/not-a-uuid', { key }), 404, 'not_found');

    const events = (await feed()).filter((e) => e.aggregate_id === v.id);
    expect(events.map((e) => e.type)).to.deep.equal(['view.created', 'view.updated', 'view.deleted']);
    expect(events[0]!.payload).to.deep.equal({
      id: v.id,
      name: 'Open billing',
      query: openQ,
      sort: 'created_at',
      order: 'asc',
      visibility: 'workspace',
      member_id: owner.memberId,
    });
    expect(events[1]!.payload).to.deep.equal({ id: v.id, private: false, name: 'Open or snoozed', query: q2 });
    expect(events[2]!.payload).to.deep.equal({ id: v.id, private: false });
    await eventually(
      () => receiver.inSeqOrder((b) => b.aggregate_id === v.id).length,
      (n) => n >= 3,
    );
    const pushed = receiver.inSeqOrder((b) => b.aggregate_id === v.id);
    expect(pushed.map((b) => b.type)).to.deep.equal(['view.created', 'view.updated', 'view.deleted']);
    expect(pushed[0]).to.include({ aggregate_type: 'view', tenant_id: owner.workspaceId });
    expect(pushed[0].payload).to.deep.equal(events[0]!.payload);
  });

  it('validates the query with the conversations filter language (400 naming the path) and the rest of the body', async () => {
    const before = (await feed()).length;
    await failsWith(
      create({ name: 'Bad', query: { operator: 'AND', value: [openQ, { field: 'state', operator: '~', value: 'op' }] } }),
      400,
      'invalid_query',
      'query.value.1.operator',
    );
    await failsWith(create({ name: 'Bad', query: { field: 'email', operator: '=', value: 'a@b.example' } }), 400, 'invalid_query', 'query.field');
    await failsWith(create({ name: 'Bad', query: { field: 'updated_at', operator: '<', value: '2026-01-01' } }), 400, 'invalid_query', 'query.value');
    await failsWith(create({ query: openQ }), 400, 'missing_field', 'name');
    await failsWith(create({ name: 'x', query: openQ, visibility: 'team' }), 400, 'invalid_field', 'visibility');
    await failsWith(create({ name: 'x', query: openQ, sort: 'subject' }), 400, 'invalid_field', 'sort');
    await failsWith(create({ name: '  ', query: openQ }), 400, 'invalid_field', 'name');
    // A workspace view: a private one's events are not in the feed (private-views.e2e.test.ts).
    const v = await ok(create({ name: 'Valid', query: openQ, visibility: 'workspace' }), 201);
    await failsWith(t.client.put(`/api/views/${v.id}`, { query: { operator: 'OR', value: [] } }, { key }), 400, 'invalid_query', 'query.value');
    await failsWith(t.client.put(`/api/views/${v.id}`, {}, { key }), 400, 'invalid_field');
    expect((await feed()).length).to.equal(before + 1);
    await ok(t.client.delete(`/api/views/${v.id}`, { key }));
  });

  it('refuses a full-text value Postgres cannot parse when a view is saved; one saved before runs as 400 and counts as nothing', async () => {
    const poison = { field: 'body', operator: '~', value: `${'-'.repeat(33)}a` };
    await failsWith(create({ name: 'Poison', query: poison, visibility: 'workspace' }), 400, 'invalid_query', 'query.value');
    const v = await ok(create({ name: 'Was fine', query: { field: 'body', operator: '~', value: 'refund' }, visibility: 'workspace' }), 201);
    await failsWith(t.client.put(`/api/views/${v.id}`, { query: poison }, { key }), 400, 'invalid_query', 'query.value');
    // A view stored before the check existed (written into its row as an earlier version would have kept it).
    await t.testDb
      .db('views')
      .where({ tenant_id: owner.workspaceId, id: v.id })
      .update({ query: JSON.stringify(poison) });
    await failsWith(t.client.get(`/api/conversations?view_id=${v.id}`, { key }), 400, 'invalid_query');
    // Every member's counts still answer: that view counts nothing, the others count as before.
    for (const k of [key, agentKey]) {
      const counts = await ok(t.client.get('/api/conversations/counts', { key: k }));
      expect(counts.data.find((c: { id: string }) => c.id === v.id)).to.include({ count: 0 });
      expect(counts.data.find((c: { id: string }) => c.id === 'all').count).to.be.a('number');
    }
    await ok(t.client.delete(`/api/views/${v.id}`, { key }));
  });

  it('keeps private views to their member (others get 404) and workspace views behind settings:write (403)', async () => {
    const priv = await ok(create({ name: 'Agent private', query: openQ }, agentKey), 201);
    expect(priv.owner_member_id).to.equal(agent.memberId);
    // the agent's session sees it as their key does
    expect((await ok(t.client.get(`/api/views/${priv.id}`, { cookie: agent.cookie, workspace: agent.workspaceId }))).id).to.equal(priv.id);
    for (const r of [
      t.client.get(`/api/views/${priv.id}`, { key }),
      t.client.put(`/api/views/${priv.id}`, { name: 'taken over' }, { key }),
      t.client.get(`/api/conversations?view_id=${priv.id}`, { key }),
      // an admin manages workspace views, not members' own (an owner may delete it: below)
      t.client.delete(`/api/views/${priv.id}`, { key: adminKey }),
    ]) {
      await failsWith(r, 404, 'not_found');
    }
    expect((await ok(t.client.get('/api/views', { key }))).data.map((x: { id: string }) => x.id)).to.not.include(priv.id);
    expect((await ok(t.client.get('/api/conversations/counts', { key }))).data.map((x: { id: string }) => x.id)).to.not.include(priv.id);
    expect((await ok(t.client.get('/api/conversations/counts', { key: agentKey }))).data.map((x: { id: string }) => x.id)).to.include(priv.id);
    await ok(t.client.get(`/api/conversations?view_id=${priv.id}`, { key: agentKey }));

    // an agent (no settings:write) may not create, change, delete or make a workspace view
    const needs = async (r: Promise<Reply>) => {
      const b = await failsWith(r, 403, 'missing_scope');
      expect(b.errors[0].message).to.include('settings:write');
    };
    await needs(create({ name: 'Shared', query: openQ, visibility: 'workspace' }, agentKey));
    const shared = await ok(create({ name: 'Shared', query: openQ, visibility: 'workspace' }), 201);
    expect((await ok(t.client.get(`/api/views/${shared.id}`, { key: agentKey }))).id).to.equal(shared.id);
    await needs(t.client.put(`/api/views/${shared.id}`, { name: 'Renamed' }, { key: agentKey }));
    await needs(t.client.delete(`/api/views/${shared.id}`, { key: agentKey }));
    await needs(t.client.put(`/api/views/${priv.id}`, { visibility: 'workspace' }, { key: agentKey }));
    // the agent changes and deletes their own private view
    expect(await ok(t.client.put(`/api/views/${priv.id}`, { name: 'Renamed private' }, { key: agentKey }))).to.include({ name: 'Renamed private' });
    // a workspace view made private becomes the private view of whoever did it
    const made = await ok(t.client.put(`/api/views/${shared.id}`, { visibility: 'private' }, { key }));
    expect(made).to.include({ visibility: 'private', owner_member_id: owner.memberId });
    await failsWith(t.client.get(`/api/views/${shared.id}`, { key: agentKey }), 404, 'not_found');
    await ok(t.client.delete(`/api/views/${priv.id}`, { key: agentKey }));
    await ok(t.client.delete(`/api/views/${shared.id}`, { key }));

    // reading views needs conversations:read
    const settingsOnly = (await mintKey(t, owner, ['settings:write'])).secret;
    for (const r of [
      t.client.get('/api/views', { key: settingsOnly }),
      create({ name: 'x', query: openQ, visibility: 'workspace' }, settingsOnly),
      t.client.get('/api/conversations/counts', { key: settingsOnly }),
    ]) {
      const b = await failsWith(r, 403, 'missing_scope');
      expect(b.errors[0].message).to.include('conversations:read');
    }
    expect((await t.client.get('/api/views')).status).to.equal(401);
  });

  it('keeps workspaces apart: another workspace gets 404 for a view, its list and counts hold none of ours', async () => {
    const v = await ok(create({ name: 'Ours', query: openQ, visibility: 'workspace' }), 201);
    const other = await newWorkspace(t, 'Other');
    const otherKey = (await mintKey(t, other, ['settings:write', 'conversations:read'])).secret;
    for (const r of [
      t.client.get(`/api/views/${v.id}`, { key: otherKey }),
      t.client.put(`/api/views/${v.id}`, { name: 'Theirs' }, { key: otherKey }),
      t.client.delete(`/api/views/${v.id}`, { key: otherKey }),
      t.client.get(`/api/conversations?view_id=${v.id}`, { key: otherKey }),
    ]) {
      await failsWith(r, 404, 'not_found');
    }
    expect((await ok(t.client.get('/api/views', { key: otherKey }))).data).to.deep.equal([]);
    const counts = await ok(t.client.get('/api/conversations/counts', { key: otherKey }));
    expect(counts.data.every((r: { kind: string; count: number }) => r.kind === 'builtin' && r.count === 0)).to.equal(true);
    await ok(t.client.delete(`/api/views/${v.id}`, { key }));
  });

  it("lists a view's conversations with ?view_id= (built-in or custom), and 404s an unknown view", async () => {
    const a = await ok(
      t.client.post('/api/conversations', { channel_id: channelId, body: 'lost my walrus', contact: { email: 'w@example.com' } }, { key }),
      201,
    );
    const b = await ok(
      t.client.post(
        '/api/conversations',
        { channel_id: channelId, body: 'walrus found', contact: { email: 'w@example.com' }, assignee_id: owner.memberId },
        { key },
      ),
      201,
    );
    const v = await ok(create({ name: 'Walrus', query: { field: 'body', operator: '~', value: 'walrus' } }), 201);
    expect((await listAll(`view_id=${v.id}`)).sort()).to.deep.equal([a.id, b.id].sort());
    expect(await listAll(`view_id=${v.id}&assignee_id=none`)).to.deep.equal([a.id]);
    expect(await listAll('view_id=assigned_to_me'))
      .to.include(b.id)
      .and.not.include(a.id);
    // an API key's "me" is the member who minted it: the agent has nothing assigned
    expect(await listAll('view_id=assigned_to_me', agentKey)).to.deep.equal([]);
    const page = await ok(t.client.get(`/api/conversations?view_id=${v.id}&per_page=1`, { key }));
    expect(page.pages.next).to.not.equal(null);
    const rest = await ok(t.client.get(`/api/conversations?view_id=${v.id}&per_page=1&starting_after=${page.pages.next.starting_after}`, { key }));
    expect([page.data[0].id, rest.data[0].id].sort()).to.deep.equal([a.id, b.id].sort());
    await failsWith(t.client.get('/api/conversations?view_id=00000000-0000-4000-8000-000000000000', { key }), 404, 'not_found');
    await failsWith(t.client.get('/api/conversations?view_id=nonsense', { key }), 400, 'invalid_field', 'view_id');
    await ok(t.client.delete(`/api/views/${v.id}`, { key }));
  });

  it('counts carry as_of_seq: the seq of the last event they reflect', async () => {
    const c1 = await ok(t.client.get('/api/conversations/counts', { key }));
    expect(c1.type).to.equal('list');
    expect(c1.as_of_seq).to.be.a('number').greaterThan(0);
    const conv = await ok(
      t.client.post('/api/conversations', { channel_id: channelId, body: 'count me', contact: { email: 'count@example.com' } }, { key }),
      201,
    );
    const c2 = await ok(t.client.get('/api/conversations/counts', { key }));
    const newEvents = (await ok(t.client.get(`/api/events?after_seq=${c1.as_of_seq}&per_page=150`, { key }))).data as { seq: number; aggregate_id: string }[];
    expect(newEvents.length).to.be.greaterThan(0);
    expect(c2.as_of_seq).to.equal(newEvents.at(-1)!.seq);
    expect(newEvents.some((e) => e.aggregate_id === conv.id)).to.equal(true);
    const row = (c: any, id: string) => c.data.find((r: { id: string }) => r.id === id).count;
    expect(row(c2, 'open')).to.equal(row(c1, 'open') + 1);
    expect(row(c2, 'all')).to.equal(row(c1, 'all') + 1);
    expect(c2.data.slice(0, 6).map((r: { id: string; kind: string }) => `${r.id}:${r.kind}`)).to.deep.equal(
      ['open', 'unassigned', 'assigned_to_me', 'snoozed', 'closed', 'all'].map((i) => `${i}:builtin`),
    );
  });

  it("lets an owner delete an agent's private view they still cannot read; another agent or an admin finds nothing (404)", async () => {
    const other = await addMember(t, owner, 'agent');
    const otherAs = { cookie: other.cookie, workspace: other.workspaceId };
    const priv = await ok(create({ name: 'Agent notes', query: openQ }, agentKey), 201);
    for (const r of [
      t.client.get(`/api/views/${priv.id}`, otherAs),
      t.client.delete(`/api/views/${priv.id}`, otherAs),
      t.client.delete(`/api/views/${priv.id}`, { key: adminKey }),
      // the owner does not read it either
      t.client.get(`/api/views/${priv.id}`, { key }),
    ])
      await failsWith(r, 404, 'not_found');
    // An owner's key without settings:write is refused like anyone's.
    const ownerReader = (await mintKey(t, owner, ['conversations:read'])).secret;
    await failsWith(t.client.delete(`/api/views/${priv.id}`, { key: ownerReader }), 404, 'not_found');
    expect(await ok(t.client.delete(`/api/views/${priv.id}`, { key }))).to.deep.equal({ type: 'view', id: priv.id, deleted: true });
    await failsWith(t.client.get(`/api/views/${priv.id}`, { key: agentKey }), 404, 'not_found');
    expect((await ok(t.client.get('/api/views', { key: agentKey }))).data.map((v: { id: string }) => v.id)).to.not.include(priv.id);
    // Its deletion stays out of the feed, as its creation did.
    expect((await feed()).filter((e) => e.aggregate_id === priv.id)).to.deep.equal([]);
  });

  it("gives each member's private views a quota of their own: a viewer fills theirs, and the workspace's views still have room", async function () {
    this.timeout(300_000);
    const ws = await newWorkspace(t, 'Quotas');
    const wsKey = (await mintKey(t, ws, ['settings:write', 'conversations:read'])).secret;
    const viewer = await addMember(t, ws, 'viewer');
    const viewerAs = { cookie: viewer.cookie, workspace: viewer.workspaceId };
    for (let i = 0; i < MAX_PRIVATE_VIEWS; i++) await ok(t.client.post('/api/views', { name: `Mine ${i}`, query: openQ }, viewerAs), 201);
    const full = await failsWith(t.client.post('/api/views', { name: 'One more', query: openQ }, viewerAs), 422, 'limit_reached');
    expect(full.errors[0].message).to.include(`at most ${MAX_PRIVATE_VIEWS} private views`);
    // The viewer's views no longer count against the workspace's: all of its workspace views fit beside them.
    for (let i = 0; i < MAX_WORKSPACE_VIEWS; i++)
      await ok(t.client.post('/api/views', { name: `Team ${i}`, query: openQ, visibility: 'workspace' }, { key: wsKey }), 201);
    const over = await failsWith(
      t.client.post('/api/views', { name: 'Team over', query: openQ, visibility: 'workspace' }, { key: wsKey }),
      422,
      'limit_reached',
    );
    expect(over.errors[0].message).to.include(`at most ${MAX_WORKSPACE_VIEWS} workspace views`);
    // Nor the other way round: the owner's own private views have their own room.
    await ok(t.client.post('/api/views', { name: 'Owner private', query: openQ }, { key: wsKey }), 201);
    // The viewer sees every workspace view and all of their own, in the list and the counts.
    const list = (await ok(t.client.get('/api/views', viewerAs))).data;
    expect(list).to.have.length(MAX_WORKSPACE_VIEWS + MAX_PRIVATE_VIEWS);
    const counts = (await ok(t.client.get('/api/conversations/counts', viewerAs))).data;
    expect(counts.filter((c: { kind: string }) => c.kind === 'custom')).to.have.length(MAX_WORKSPACE_VIEWS + MAX_PRIVATE_VIEWS);
  });

  it("takes a removed member's private views with them, keeps their workspace views, and a rebuild lands on the same rows", async () => {
    const leaving = await addMember(t, owner, 'admin');
    const as = { cookie: leaving.cookie, workspace: leaving.workspaceId };
    const privs: { id: string }[] = [];
    for (const name of ['Leaving 1', 'Leaving 2']) privs.push(await ok(t.client.post('/api/views', { name, query: openQ }, as), 201));
    await ok(t.client.put(`/api/views/${privs[0]!.id}`, { name: 'Leaving 1 renamed' }, as));
    const shared = await ok(t.client.post('/api/views', { name: 'Left behind', query: openQ, visibility: 'workspace' }, as), 201);
    const ids = (r: { data: { id: string }[] }) => r.data.map((v) => v.id);
    expect(ids(await ok(t.client.get('/api/views', as)))).to.include.members([...privs.map((v) => v.id), shared.id]);
    expect(ids(await ok(t.client.get('/api/conversations/counts', as)))).to.include.members([...privs.map((v) => v.id), shared.id]);

    await ok(t.client.delete(`/api/members/${leaving.memberId}`, { key }));
    // An owner may delete any view: theirs are not there to delete any more.
    for (const v of privs) await failsWith(t.client.delete(`/api/views/${v.id}`, { key }), 404, 'not_found');
    // Their workspace view is everyone's, and stays.
    expect(ids(await ok(t.client.get('/api/views', { key })))).to.include(shared.id);
    expect(ids(await ok(t.client.get('/api/conversations/counts', { key })))).to.include(shared.id);
    const rowsOf = (memberId: string) => t.testDb.db('views').where({ tenant_id: owner.workspaceId, owner_member_id: memberId }).select('id', 'visibility');
    expect(await rowsOf(leaving.memberId)).to.deep.equal([{ id: shared.id, visibility: 'workspace' }]);
    // Nothing of their private views reached the feed on the way.
    const feedIds = (await feed()).map((e) => e.aggregate_id);
    for (const v of privs) expect(feedIds).to.not.include(v.id);

    // A member removed before removals took their views kept them: erasing them takes those.
    const earlier = await addMember(t, owner, 'agent');
    await ok(t.client.delete(`/api/members/${earlier.memberId}`, { key }));
    const now = new Date();
    await t.testDb.db('views').insert({
      tenant_id: owner.workspaceId,
      id: '00000000-0000-4000-8000-00000000e1a5',
      name: 'Kept by an earlier version',
      query: JSON.stringify(openQ),
      sort: 'updated_at',
      sort_order: 'desc',
      visibility: 'private',
      owner_member_id: earlier.memberId,
      created_at: now,
      updated_at: now,
    });
    await ok(t.client.post(`/api/members/${earlier.memberId}/erase`, undefined, { key }));
    expect(await rowsOf(earlier.memberId)).to.deep.equal([]);

    // The projection and a rebuild from the log agree, row for row.
    const all = () => t.testDb.db('views').orderBy(['tenant_id', 'id']);
    const live = await all();
    await rebuildReadModels(t.service.deps.db, t.service.deps.store, t.service.engine);
    expect(await all()).to.deep.equal(live);
    await ok(t.client.delete(`/api/views/${shared.id}`, { key }));
  });

  it('counts equal what listing each view returns, over 400 generated conversations', async function () {
    this.timeout(240_000);
    const GENERATED = 400;
    const ws = await newWorkspace(t, 'Generated');
    const k = (await mintKey(t, ws, ['settings:write', 'conversations:read', 'conversations:write', 'members:invite', 'members:read'])).secret;
    const members = [ws.memberId, (await addMember(t, ws, 'agent')).memberId, (await addMember(t, ws, 'agent')).memberId];
    const teams: string[] = [];
    for (const name of ['Red', 'Green', 'Blue']) teams.push((await ok(t.client.post('/api/teams', { name }, { key: k }), 201)).id);
    const tags: string[] = [];
    for (const name of ['vip', 'bug', 'billing']) tags.push((await ok(t.client.post('/api/tags', { name }, { key: k }), 201)).id);
    const ch = (await createChannel(t, ws)).id;
    const contact = (await ok(t.client.post('/api/conversations', { channel_id: ch, body: 'first', contact: { email: 'gen@example.com' } }, { key: k }), 201))
      .contact_id;
    // a seeded PRNG (mulberry32): the same data every run
    let seed = 0x5eed;
    const rand = () => {
      seed |= 0;
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
    const words = ['apple', 'banana', 'cherry', 'damson'];
    const snoozeUntil = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
    const one = async () => {
      const assignee = pick([null, null, ...members]);
      const c = await ok(
        t.client.post(
          '/api/conversations',
          { channel_id: ch, body: `about ${pick(words)}`, contact_id: contact, ...(assignee ? { assignee_id: assignee } : {}) },
          { key: k },
        ),
        201,
      );
      const team = pick([null, null, ...teams]);
      if (team) await ok(t.client.post(`/api/conversations/${c.id}/parts`, { message_type: 'assignment', team_id: team }, { key: k }), 201);
      for (const tag of tags) if (rand() < 0.3) await ok(t.client.post(`/api/conversations/${c.id}/tags`, { tag_id: tag }, { key: k }));
      const state = pick(['open', 'open', 'closed', 'snoozed']);
      if (state === 'closed') await ok(t.client.post(`/api/conversations/${c.id}/parts`, { message_type: 'close' }, { key: k }), 201);
      if (state === 'snoozed')
        await ok(t.client.post(`/api/conversations/${c.id}/parts`, { message_type: 'snoozed', snoozed_until: snoozeUntil }, { key: k }), 201);
    };
    // 400 (the first included) spread over 4 states, 3 teams, 3 assignees and 3 tags: every view has tens of rows, and listing all crosses pages of 150.
    for (let i = 1; i < GENERATED; i += 40) await Promise.all(Array.from({ length: Math.min(40, GENERATED - i) }, one));

    const custom = [
      { name: 'Red open', query: { operator: 'AND', value: [{ field: 'team_id', operator: '=', value: teams[0] }, openQ] }, visibility: 'workspace' },
      {
        name: 'Agent or blue',
        query: {
          operator: 'OR',
          value: [
            { field: 'assignee_id', operator: '=', value: members[1] },
            { field: 'team_id', operator: '=', value: teams[2] },
          ],
        },
        visibility: 'workspace',
      },
      {
        name: 'Idle unowned',
        query: {
          operator: 'AND',
          value: [
            { field: 'state', operator: 'IN', value: ['closed', 'snoozed'] },
            { field: 'assignee_id', operator: '=', value: null },
          ],
        },
      },
      {
        name: 'Cherries not green',
        query: {
          operator: 'AND',
          value: [
            { field: 'body', operator: '~', value: 'cherry' },
            { field: 'team_id', operator: '!=', value: teams[1] },
          ],
        },
      },
      {
        name: 'VIP or bugs, not billing',
        query: {
          operator: 'AND',
          value: [
            { field: 'tag_ids', operator: 'IN', value: [tags[0], tags[1]] },
            { field: 'tag_ids', operator: '!=', value: tags[2] },
          ],
        },
      },
      { name: 'Untagged open', query: { operator: 'AND', value: [{ field: 'tag_ids', operator: '=', value: null }, openQ] }, visibility: 'workspace' },
      {
        name: 'Nested',
        query: {
          operator: 'OR',
          value: [
            { operator: 'AND', value: [openQ, { field: 'assignee_id', operator: 'NIN', value: [members[0], members[2]] }] },
            { field: 'snoozed_until', operator: '>', value: new Date(0).toISOString() },
          ],
        },
      },
    ];
    for (const v of custom) await ok(t.client.post('/api/views', v, { key: k }), 201);

    const counts = await ok(t.client.get('/api/conversations/counts', { key: k }));
    expect(counts.data).to.have.length(6 + custom.length);
    const byId = Object.fromEntries(counts.data.map((r: { id: string; count: number }) => [r.id, r.count]));
    expect(byId.all).to.equal(GENERATED);
    // every bucket is really exercised
    for (const id of ['open', 'unassigned', 'assigned_to_me', 'snoozed', 'closed']) expect(byId[id], id).to.be.greaterThan(10);
    expect(byId.open + byId.snoozed + byId.closed).to.equal(GENERATED);
    for (const row of counts.data as { id: string; name: string; count: number }[]) {
      const listed = await listAll(`view_id=${row.id}`, k);
      expect(new Set(listed).size, `${row.name}: duplicates in the list`).to.equal(listed.length);
      expect(listed.length, `${row.name} (${row.id})`).to.equal(row.count);
      expect(row.count, `${row.name} is not trivially empty`).to.be.greaterThan(0);
    }
    // the body condition's three SQL shapes (a page's walk, a page's probe, the counts') find the same conversations
    const db = t.service.deps.db;
    const cherries = counts.data.find((r: { name: string }) => r.name === 'Cherries not green');
    const shapes: Omit<SqlContext, 'tenantId'>[] = [
      { purpose: 'list' },
      { purpose: 'list', lookup: db },
      { purpose: 'count' },
      { purpose: 'count', lookup: db },
    ];
    for (const shape of shapes) {
      const w = await compileQuery(conversationSearch, custom[3]!.query, { tenantId: ws.workspaceId, ...shape });
      const n = (
        await db.raw(`SELECT count(*)::int AS n FROM conversations WHERE conversations.tenant_id = ? AND ${w.sql}`, [
          ws.workspaceId,
          ...(w.bindings as never[]),
        ])
      ).rows[0].n;
      expect(n, JSON.stringify({ purpose: shape.purpose, probe: !!shape.lookup })).to.equal(cherries.count);
    }
  });
});

// Finding 7 of the 2026-11-28 security review: a custom view is a saved search, and the counts one search per
// custom view, so both draw from the workspace's expensive budget (the counts one unit per view). A service of
// its own with a tiny expensive budget, on a manual clock: a window ends only when a test moves it.
describe('views and counts under the expensive rate limit', function () {
  this.timeout(180_000);
  const WINDOW_S = 60;
  const EXPENSIVE = 6;
  let t: TestService;
  let clock: ManualClock;
  let key: string;
  let agentKey: string;
  let views: string[];
  const openQ = { field: 'state', operator: '=', value: 'open' };

  /** `"name";a=1;b=2, …` → { name: { a: 1, b: 2 } } */
  const items = (field: string | null) =>
    Object.fromEntries(
      (field ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((item) => {
          const [name, ...params] = item.split(';');
          return [JSON.parse(name!) as string, Object.fromEntries(params.map((p) => p.split('=')).map(([k, v]) => [k!, Number(v)]))];
        }),
    ) as Record<string, Record<string, number>>;
  type Answer = { status: number; text: string; body: any; headers: Headers };
  const expensiveLeft = (r: Answer) => items(r.headers.get('ratelimit')).expensive?.r;
  const expectOk = (r: Answer) => {
    expect(r.status, r.text).to.equal(200);
    expect(items(r.headers.get('ratelimit-policy')).expensive, 'RateLimit-Policy names the expensive policy').to.deep.equal({ q: EXPENSIVE, w: WINDOW_S });
    return r;
  };
  const expectLimited = (r: Answer, left: number) => {
    expect(r.status, r.text).to.equal(429);
    expect(r.body.type).to.equal('error.list');
    expect(r.body.errors[0].code).to.equal('rate_limited');
    expect(r.body.errors[0].message).to.include('"expensive"');
    expect(items(r.headers.get('ratelimit-policy')).expensive).to.deep.equal({ q: EXPENSIVE, w: WINDOW_S });
    expect(expensiveLeft(r)).to.equal(left);
    expect(Number(r.headers.get('retry-after')))
      .to.equal(items(r.headers.get('ratelimit')).expensive!.t)
      .and.to.be.within(1, WINDOW_S);
  };
  const listView = (id: string, k = key) => t.client.get(`/api/conversations?view_id=${id}`, { key: k }) as Promise<Answer>;
  const counts = (k = key) => t.client.get('/api/conversations/counts', { key: k }) as Promise<Answer>;

  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('views_rate_limit', {
      clock,
      env: { RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_S), RATE_LIMIT_KEY: '1000', RATE_LIMIT_WORKSPACE: '1000', RATE_LIMIT_EXPENSIVE: String(EXPENSIVE) },
    });
    const owner = await newWorkspace(t, 'Expensive views');
    key = (await mintKey(t, owner, ['settings:write', 'conversations:read'])).secret;
    agentKey = (await mintKey(t, await addMember(t, owner, 'agent'), ['conversations:read'])).secret;
    views = [];
    for (const name of ['Open', 'Walrus'])
      views.push((await t.client.post('/api/views', { name, query: openQ, visibility: 'workspace' }, { key })).body.id as string);
  });
  after(() => t?.close());
  beforeEach(() => clock.advance(WINDOW_S * 1000));

  it("charges a custom view's list to the expensive budget, one unit a page, then answers 429 rate_limited; built-in views and plain lists are reads", async () => {
    for (let i = 1; i <= EXPENSIVE; i++) expect(expensiveLeft(expectOk(await listView(views[0]!)))).to.equal(EXPENSIVE - i);
    expectLimited(await listView(views[1]!), 0);
    // The same request without the view, or with a built-in view, is a plain read: no expensive policy at all.
    for (const url of ['/api/conversations', '/api/conversations?view_id=open', '/api/conversations?state=open']) {
      const r = await t.client.get(url, { key });
      expect(r.status, r.text).to.equal(200);
      expect(items(r.headers.get('ratelimit-policy'))).to.not.have.property('expensive');
    }
    // The budget is the workspace's: another member's key is refused as well.
    expectLimited(await listView(views[0]!, agentKey), 0);
  });

  it('charges the counts one unit, and one per custom view the caller sees; refuses them when fewer are left, spending nothing', async () => {
    // Two workspace views: 1 + 2.
    expect(expensiveLeft(expectOk(await counts()))).to.equal(EXPENSIVE - 3);
    expect(expensiveLeft(expectOk(await listView(views[0]!)))).to.equal(EXPENSIVE - 4);
    // Two left, three needed: refused, and the two are still there for a view's list.
    const refused = await counts();
    expectLimited(refused, 2);
    expect(refused.body.errors[0].message).to.include('3 units');
    expect(expensiveLeft(expectOk(await listView(views[1]!)))).to.equal(1);

    // A private view of the agent's own costs the agent's counts one more, not the owner's.
    clock.advance(WINDOW_S * 1000);
    const mine = await t.client.post('/api/views', { name: 'Agent only', query: openQ }, { key: agentKey });
    expect(mine.status, mine.text).to.equal(201);
    expect(expensiveLeft(expectOk(await counts()))).to.equal(EXPENSIVE - 3);
    expectLimited(await counts(agentKey), 3);
    clock.advance(WINDOW_S * 1000);
    expect(expensiveLeft(expectOk(await counts(agentKey)))).to.equal(EXPENSIVE - 4);
  });
});
