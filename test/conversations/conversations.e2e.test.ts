import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';

describe('conversations', function () {
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let key: string;
  let ch: { id: string; secret: string };

  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('conversations', { clock });
    owner = await newWorkspace(t);
    ch = await createChannel(t, owner);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'events:read'])).secret;
  });
  after(async () => t.close());

  const counts = async (k = key) => {
    const r = await t.client.get('/api/conversations/counts', { key: k });
    expect(r.status).to.equal(200);
    expect(r.body).to.not.have.property('pages');
    return Object.fromEntries(r.body.data.map((v: { id: string; count: number }) => [v.id, v.count]));
  };
  const feedTypes = async (afterSeq: number) =>
    (await t.client.get(`/api/events?after_seq=${afterSeq}&per_page=150`, { key })).body.data.map(
      (e: { type: string; payload: { part_type?: string } }) => `${e.type}${e.payload.part_type ? `:${e.payload.part_type}` : ''}`,
    );

  it('starts a conversation for a contact with the body as its first part', async () => {
    const r = await t.client.post(
      '/api/conversations',
      { channel_id: ch.id, body: 'Your order shipped.', subject: 'Order 77', contact: { email: 'Buyer@Example.com', name: 'Buyer' } },
      { key },
    );
    expect(r.status, r.text).to.equal(201);
    expect(r.body).to.include({ type: 'conversation', state: 'open', channel_id: ch.id, subject: 'Order 77', parts_count: 1, assignee_id: null });
    expect(r.body.parts[0]).to.include({ part_type: 'comment', body: 'Your order shipped.' });
    expect(r.body.parts[0].author.type).to.equal('api_key');
    const again = await t.client.post('/api/conversations', { channel_id: ch.id, body: 'Second', contact: { email: 'buyer@example.com' } }, { key });
    expect(again.body.contact_id).to.equal(r.body.contact_id);
  });

  it('refuses bad references as field errors and creates nothing', async () => {
    const head = await t.service.deps.store.head(owner.workspaceId);
    const noChannel = await t.client.post(
      '/api/conversations',
      { channel_id: '00000000-0000-4000-8000-000000000009', body: 'x', contact: { email: 'a@example.com' } },
      { key },
    );
    expect(noChannel.status).to.equal(400);
    expect(noChannel.body.errors[0]).to.include({ code: 'unknown_channel', field: 'channel_id' });
    const both = await t.client.post('/api/conversations', { channel_id: ch.id, body: 'x' }, { key });
    expect(both.status).to.equal(400);
    expect(both.body.errors[0].field).to.equal('contact');
    const missing = await t.client.post('/api/conversations', { channel_id: 'nope', contact: { email: 'a@example.com' } }, { key });
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal(['body', 'channel_id']);
    expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(head);
  });

  it('shows a reply and a note as parts with their type, and in the feed as conversation_part.created', async () => {
    const inbound = await postInbound(t, ch.id, ch.secret, inboundBody());
    const id = inbound.body.conversation_id;
    const head = await t.service.deps.store.head(owner.workspaceId);
    const reply = await t.client.post(`/api/conversations/${id}/reply`, { body: 'We are on it.', message_type: 'comment' }, { key });
    expect(reply.status, reply.text).to.equal(201);
    expect(reply.body).to.include({ type: 'conversation_part', part_type: 'comment', body: 'We are on it.' });
    const note = await t.client.post(`/api/conversations/${id}/reply`, { body: 'Customer is VIP', message_type: 'note' }, { key });
    expect(note.body.part_type).to.equal('note');
    const conv = await t.client.get(`/api/conversations/${id}`, { key });
    expect(conv.body.parts.map((p: { part_type: string }) => p.part_type)).to.deep.equal(['message', 'comment', 'note']);
    expect(await feedTypes(head)).to.deep.equal(['conversation_part.created:comment', 'conversation_part.created:note']);
    const bad = await t.client.post(`/api/conversations/${id}/reply`, { body: 'x', message_type: 'shout' }, { key });
    expect(bad.status).to.equal(400);
  });

  it('closes, reopens, snoozes and assigns, each as a part and an event, and the counts follow', async () => {
    const agent = await addMember(t, owner, 'agent');
    const agentKey = (await mintKey(t, agent, ['conversations:read', 'conversations:write'])).secret;
    const base = await counts();
    const r = await postInbound(t, ch.id, ch.secret, inboundBody());
    const id = r.body.conversation_id;
    let c = await counts();
    expect(c.open).to.equal(base.open + 1);
    expect(c.unassigned).to.equal(base.unassigned + 1);

    const assign = await t.client.post(`/api/conversations/${id}/parts`, { message_type: 'assignment', assignee_id: agent.memberId }, { key });
    expect(assign.status, assign.text).to.equal(201);
    expect(assign.body).to.include({ part_type: 'assignment', assignee_id: agent.memberId });
    expect(assign.body.conversation.assignee_id).to.equal(agent.memberId);
    c = await counts();
    expect(c.unassigned).to.equal(base.unassigned);
    expect((await counts(agentKey)).assigned_to_me).to.equal(1);

    const until = new Date(clock.now().getTime() + 3600_000).toISOString();
    const snooze = await t.client.post(`/api/conversations/${id}/parts`, { message_type: 'snoozed', snoozed_until: until }, { key });
    expect(snooze.body.conversation).to.include({ state: 'snoozed', snoozed_until: until });
    c = await counts();
    expect(c.snoozed).to.equal(base.snoozed + 1);
    expect(c.open).to.equal(base.open);

    const close = await t.client.post(`/api/conversations/${id}/parts`, { message_type: 'close', body: 'Solved' }, { key });
    expect(close.body.conversation.state).to.equal('closed');
    c = await counts();
    expect(c.closed).to.equal(base.closed + 1);
    expect(c.snoozed).to.equal(base.snoozed);
    const twice = await t.client.post(`/api/conversations/${id}/parts`, { message_type: 'close' }, { key });
    expect(twice.status).to.equal(409);

    const reopen = await t.client.post(`/api/conversations/${id}/parts`, { message_type: 'open' }, { key });
    expect(reopen.body.conversation.state).to.equal('open');
    expect((await counts()).open).to.equal(base.open + 1);

    const parts = (await t.client.get(`/api/conversations/${id}`, { key })).body.parts.map((p: { part_type: string }) => p.part_type);
    expect(parts).to.deep.equal(['message', 'assignment', 'snoozed', 'close', 'open']);
  });

  it('refuses a snooze in the past and an assignment to a stranger', async () => {
    const r = await postInbound(t, ch.id, ch.secret, inboundBody());
    const past = await t.client.post(
      `/api/conversations/${r.body.conversation_id}/parts`,
      { message_type: 'snoozed', snoozed_until: '2001-01-01T00:00:00Z' },
      { key },
    );
    expect(past.status).to.equal(400);
    expect(past.body.errors[0].code).to.equal('snooze_in_past');
    const stranger = await t.client.post(
      `/api/conversations/${r.body.conversation_id}/parts`,
      { message_type: 'assignment', assignee_id: '00000000-0000-4000-8000-000000000001' },
      { key },
    );
    expect(stranger.status).to.equal(400);
    expect(stranger.body.errors[0].code).to.equal('unknown_member');
    const noUntil = await t.client.post(`/api/conversations/${r.body.conversation_id}/parts`, { message_type: 'snoozed' }, { key });
    expect(noUntil.status).to.equal(400);
  });

  it('filters the list by state, assignee and channel', async () => {
    const closed = await t.client.get('/api/conversations?state=closed', { key });
    expect(closed.body.data.every((c: { state: string }) => c.state === 'closed')).to.equal(true);
    const unassigned = await t.client.get('/api/conversations?assignee_id=none&per_page=150', { key });
    expect(unassigned.body.data.every((c: { assignee_id: string | null }) => c.assignee_id === null)).to.equal(true);
    const byChannel = await t.client.get(`/api/conversations?channel_id=${ch.id}`, { key });
    expect(byChannel.body.data.length).to.be.greaterThan(0);
  });

  it("answers 404 for another workspace's conversation", async () => {
    const other = await newWorkspace(t, 'Other');
    const och = await createChannel(t, other);
    const theirs = await postInbound(t, och.id, och.secret, inboundBody());
    expect((await t.client.get(`/api/conversations/${theirs.body.conversation_id}`, { key })).status).to.equal(404);
    expect((await t.client.post(`/api/conversations/${theirs.body.conversation_id}/reply`, { body: 'x', message_type: 'comment' }, { key })).status).to.equal(
      404,
    );
    expect((await t.client.get('/api/conversations/not-a-uuid', { key })).status).to.equal(404);
  });

  it('answers each of many concurrent reads and replies with its own conversation and part (reads are batched per workspace)', async () => {
    const other = await newWorkspace(t, 'Concurrent neighbour');
    const och = await createChannel(t, other);
    const theirs = (await postInbound(t, och.id, och.secret, inboundBody())).body.conversation_id as string;
    const mine: string[] = [];
    for (let i = 0; i < 5; i++)
      mine.push(
        (await t.client.post('/api/conversations', { channel_id: ch.id, body: `Batch ${i}`, contact: { email: `batch${i}@example.com` } }, { key })).body.id,
      );
    const alone = new Map<string, unknown>();
    for (const id of mine) alone.set(id, (await t.client.get(`/api/conversations/${id}`, { key })).body);
    // 40 GETs at once, in a mixed order, with a missing id and another workspace's among them
    const asked = Array.from({ length: 40 }, (_, i) => (i % 10 === 7 ? theirs : i % 10 === 9 ? '00000000-0000-4000-8000-000000000009' : mine[i % 5]!));
    const got = await Promise.all(asked.map((id) => t.client.get(`/api/conversations/${id}`, { key })));
    got.forEach((r, i) => {
      if (asked[i] === theirs || !mine.includes(asked[i]!)) expect(r.status, asked[i]).to.equal(404);
      else expect(r.body, asked[i]).to.deep.equal(alone.get(asked[i]!));
    });
    // replies at once: each answer is its own new part, on its own conversation
    const replies = await Promise.all(
      mine.flatMap((id, i) => [0, 1].map((n) => t.client.post(`/api/conversations/${id}/reply`, { body: `reply ${i}.${n}`, message_type: 'note' }, { key }))),
    );
    replies.forEach((r, j) => {
      expect(r.status, r.text).to.equal(201);
      expect(r.body.body).to.equal(`reply ${Math.floor(j / 2)}.${j % 2}`);
      expect(r.body.conversation.id).to.equal(mine[Math.floor(j / 2)]);
    });
    expect(new Set(replies.map((r) => r.body.id)).size).to.equal(10);
  });
});

describe('snoozed conversations wake up', function () {
  let t: TestService;
  let clock: ManualClock;
  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('unsnooze', { clock });
  });
  after(async () => t.close());

  it('reopens a conversation once snoozed_until has passed, as an open part by the system', async () => {
    const owner = await newWorkspace(t);
    const ch = await createChannel(t, owner);
    const key = (await mintKey(t, owner, ['conversations:read', 'conversations:write'])).secret;
    const soon = (await postInbound(t, ch.id, ch.secret, inboundBody())).body.conversation_id;
    const later = (await postInbound(t, ch.id, ch.secret, inboundBody())).body.conversation_id;
    const hour = new Date(clock.now().getTime() + 3600_000).toISOString();
    const day = new Date(clock.now().getTime() + 86400_000).toISOString();
    await t.client.post(`/api/conversations/${soon}/parts`, { message_type: 'snoozed', snoozed_until: hour }, { key });
    await t.client.post(`/api/conversations/${later}/parts`, { message_type: 'snoozed', snoozed_until: day }, { key });
    const worker = t.service.workers.find((w) => w.name === 'unsnooze') as unknown as { tick(): Promise<number> };
    expect(await worker.tick()).to.equal(0);
    clock.advance(2 * 3600_000);
    expect(await worker.tick()).to.equal(1);
    const woke = await t.client.get(`/api/conversations/${soon}`, { key });
    expect(woke.body).to.include({ state: 'open', snoozed_until: null });
    expect(woke.body.parts.at(-1)).to.deep.include({ part_type: 'open', author: { type: 'system', id: 'unsnooze' } });
    expect((await t.client.get(`/api/conversations/${later}`, { key })).body.state).to.equal('snoozed');
  });
});
