// Any past state and its history (issue 29, item 6): GET /api/conversations/{id}?as_of_seq=N and
// GET /api/contacts/{id}?as_of_seq=N answer the resource as it was right after event N, folded from its
// own events; …/history lists those events oldest first, each with its actor. Personal fields read as they
// were while their keys exist and as null once erased; 404 before the resource existed, 400 beyond the log.
import { expect } from 'chai';
import { createChannel } from '../support/channels.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

describe('past states (as_of_seq) and histories of conversations and contacts', function () {
  this.timeout(240_000);
  let t: TestService;
  let owner: Member;
  let agent: Member;
  let key: { id: string; secret: string };
  let ch: { id: string; secret: string };
  const as = () => ({ key: key.secret });
  const asOwner = () => ({ cookie: owner.cookie, workspace: owner.workspaceId });
  const head = () => t.service.deps.store.head(owner.workspaceId);

  before(async () => {
    t = await startTestService('history');
    owner = await newWorkspace(t);
    agent = await addMember(t, owner, 'agent');
    ch = await createChannel(t, owner);
    key = await mintKey(t, owner, ['conversations:read', 'conversations:write', 'contacts:read', 'contacts:write', 'contacts:delete', 'settings:write']);
  });
  after(async () => t?.close());

  it('shows a conversation before and after a reassignment, a tag and a close; history lists each with its actor', async () => {
    const tag = await t.client.post('/api/tags', { name: 'refund' }, as());
    expect(tag.status, tag.text).to.equal(201);
    const beforeAll = await head();
    const started = await t.client.post(
      '/api/conversations',
      { channel_id: ch.id, body: 'Where is my refund?', subject: 'Refund', contact: { email: 'asker@example.com' } },
      as(),
    );
    expect(started.status, started.text).to.equal(201);
    const id = started.body.id as string;
    const atStart = await head();
    const assigned = await t.client.post(`/api/conversations/${id}/parts`, { message_type: 'assignment', assignee_id: agent.memberId }, asOwner());
    expect(assigned.status, assigned.text).to.equal(201);
    const atAssign = await head();
    const tagged = await t.client.post(`/api/conversations/${id}/tags`, { tag_id: tag.body.id }, as());
    expect(tagged.status, tagged.text).to.equal(200);
    const atTag = await head();
    const closed = await t.client.post(`/api/conversations/${id}/parts`, { message_type: 'close', body: 'Refunded.' }, as());
    expect(closed.status, closed.text).to.equal(201);
    const atClose = await head();

    const at = async (seq: number) => {
      const r = await t.client.get(`/api/conversations/${id}?as_of_seq=${seq}`, as());
      expect(r.status, `as_of_seq=${seq}: ${r.text}`).to.equal(200);
      return r.body;
    };
    const s0 = await at(atStart);
    expect(s0).to.include({ id, state: 'open', assignee_id: null, subject: 'Refund', parts_count: 1 });
    expect(s0.tags).to.deep.equal([]);
    expect(s0.parts.map((p: { body: string }) => p.body)).to.deep.equal(['Where is my refund?']);
    const s1 = await at(atAssign);
    expect(s1).to.include({ state: 'open', assignee_id: agent.memberId, parts_count: 2 });
    expect(s1.tags).to.deep.equal([]);
    const s2 = await at(atTag);
    expect(s2).to.include({ state: 'open', assignee_id: agent.memberId });
    expect(s2.tags).to.deep.equal([{ id: tag.body.id, name: 'refund' }]);
    const s3 = await at(atClose);
    expect(s3).to.include({ state: 'closed', parts_count: 3 });
    // Right after the last event, the past state is the present one, but for what the SLA worker derives (docs/audit.md).
    const now = await t.client.get(`/api/conversations/${id}`, as());
    expect(now.body.statistics).to.include({ teammate_replies: 1 });
    expect(s3).to.deep.equal({ ...now.body, sla: null, statistics: null });

    const missing = await t.client.get(`/api/conversations/${id}?as_of_seq=${beforeAll}`, as());
    expect(missing.status).to.equal(404);
    const ahead = await t.client.get(`/api/conversations/${id}?as_of_seq=${atClose + 1}`, as());
    expect(ahead.status).to.equal(400);
    expect(ahead.body.errors[0]).to.include({ code: 'seq_ahead_of_log', field: 'as_of_seq' });

    const history = await t.client.get(`/api/conversations/${id}/history`, as());
    expect(history.status, history.text).to.equal(200);
    const rows = history.body.data as { type: string; seq: number; payload: { part_type?: string }; actor: unknown }[];
    expect(rows.map((e) => `${e.type}${e.payload.part_type ? `:${e.payload.part_type}` : ''}`)).to.deep.equal([
      'conversation.created',
      'conversation_part.created:comment',
      'conversation_part.created:assignment',
      'conversation.tagged',
      'conversation_part.created:close',
    ]);
    expect(rows.map((e) => e.seq)).to.deep.equal([...rows.map((e) => e.seq)].sort((a, b) => a - b));
    expect(rows[0]!.actor).to.deep.equal({ type: 'api_key', id: key.id, member_id: owner.memberId });
    expect(rows[2]!.actor).to.deep.equal({ type: 'member', id: owner.memberId, member_id: owner.memberId });
    // Paged like every list, oldest first.
    const first = await t.client.get(`/api/conversations/${id}/history?per_page=2`, as());
    const next = await t.client.get(`/api/conversations/${id}/history?per_page=2&starting_after=${first.body.pages.next.starting_after}`, as());
    expect([...first.body.data, ...next.body.data].map((e: { seq: number }) => e.seq)).to.deep.equal(rows.slice(0, 4).map((e) => e.seq));
    expect((await t.client.get(`/api/conversations/${id}/history?order=desc`, as())).status).to.equal(400);
    expect((await t.client.get('/api/conversations/6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b/history', as())).status).to.equal(404);
  });

  it("shows a contact's past states, opened while its key exists and null once erased; erased as of N it answers 410", async () => {
    const created = await t.client.post('/api/contacts', { email: 'past@example.com', name: 'First Name', external_id: 'crm-1' }, as());
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id as string;
    const atCreate = await head();
    const renamed = await t.client.put(`/api/contacts/${id}`, { name: 'Second Name' }, asOwner());
    expect(renamed.status, renamed.text).to.equal(200);
    const atRename = await head();
    const tag = await t.client.post('/api/tags', { name: 'vip' }, as());
    await t.client.post(`/api/contacts/${id}/tags`, { tag_id: tag.body.id }, as());
    const atTag = await head();

    const at = (seq: number) => t.client.get(`/api/contacts/${id}?as_of_seq=${seq}`, as());
    expect((await at(atCreate)).body).to.include({ name: 'First Name', email: 'past@example.com' });
    expect((await at(atRename)).body).to.include({ name: 'Second Name' });
    expect((await at(atRename)).body.tags).to.deep.equal([]);
    expect((await at(atTag)).body.tags).to.deep.equal([{ id: tag.body.id, name: 'vip' }]);
    expect((await at(atCreate - 1)).status).to.equal(404);

    const erased = await t.client.delete(`/api/contacts/${id}`, as());
    expect(erased.status, erased.text).to.equal(200);
    const atErase = await head();
    // The past state keeps its shape, but what the erasure destroyed reads as null.
    const before = await at(atRename);
    expect(before.status).to.equal(200);
    expect(before.body).to.include({ id, name: null, email: null, external_id: null });
    const gone = await at(atErase);
    expect(gone.status).to.equal(410);
    expect(gone.body.errors[0].code).to.equal('contact_erased');

    const history = await t.client.get(`/api/contacts/${id}/history`, as());
    expect(history.status, history.text).to.equal(200);
    expect(history.body.data.map((e: { type: string }) => e.type)).to.deep.equal(['contact.created', 'contact.updated', 'contact.tagged', 'contact.erased']);
    expect(history.body.data[1].actor).to.deep.equal({ type: 'member', id: owner.memberId, member_id: owner.memberId });
    expect(history.body.data[1].payload.name).to.equal(null);
  });

  it("answers an erased contact's conversation at as_of_seq = head as the present read does; before the erasure, as it was then with what the erasure destroyed null", async () => {
    const started = await t.client.post(
      '/api/conversations',
      { channel_id: ch.id, body: 'Please forget me', subject: 'Forget', contact: { email: 'forgotten@example.com' } },
      as(),
    );
    expect(started.status, started.text).to.equal(201);
    const id = started.body.id as string;
    const reply = await t.client.post(`/api/conversations/${id}/reply`, { message_type: 'comment', body: 'Of course.' }, as());
    expect(reply.status, reply.text).to.equal(201);
    const beforeErasure = await head();
    const erased = await t.client.delete(`/api/contacts/${started.body.contact.id}`, as());
    expect(erased.status, erased.text).to.equal(200);
    const atErase = await head();
    const present = await t.client.get(`/api/conversations/${id}`, as());
    expect(present.status, present.text).to.equal(200);
    expect(present.body.contact).to.equal(null);
    const past = await t.client.get(`/api/conversations/${id}?as_of_seq=${atErase}`, as());
    expect(past.status, past.text).to.equal(200);
    // Equal but for what is not kept for the past (statistics and SLA: null, as the schema says).
    expect({ ...past.body, sla: null, statistics: null }).to.deep.equal({ ...present.body, sla: null, statistics: null });
    // Before the erasure: its contact, and its parts as they were, the texts the erasure destroyed null.
    const then = await t.client.get(`/api/conversations/${id}?as_of_seq=${beforeErasure}`, as());
    expect(then.body.contact).to.deep.equal({ type: 'contact', id: started.body.contact.id });
    expect(then.body.parts.map((p: { redacted: boolean; body: string | null }) => [p.redacted, p.body])).to.deep.equal([
      [false, null],
      [false, null],
    ]);
  });

  it('takes the same scopes as the plain reads', async () => {
    const noContacts = (await mintKey(t, owner, ['conversations:read'])).secret;
    const c = await t.client.post('/api/contacts', { email: 'scoped@example.com' }, as());
    expect((await t.client.get(`/api/contacts/${c.body.id}?as_of_seq=1`, { key: noContacts })).status).to.equal(403);
    expect((await t.client.get(`/api/contacts/${c.body.id}/history`, { key: noContacts })).status).to.equal(403);
  });
});
