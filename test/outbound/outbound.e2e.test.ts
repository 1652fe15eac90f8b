// Outbound collections through the HTTP API: CRUD as drafts, limits,
// validation, scopes and tenancy; sending (frozen audience, one conversation
// per recipient, the channel's bridge gets each first part), skipped and
// failed recipients, scheduling and cancelling. The worker runs in the test
// service; negative checks wait for completed worker passes, never sleeps.
import { expect } from 'chai';
import { ADMIN_SCOPES, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';
import { eventually } from '../support/events.js';
import { Receiver } from '../webhooks/receiver.js';
import type { OutboundWorker } from '../../src/capabilities/outbound/outbound.worker.js';
import { deliverRecipient, recipientConversationId } from '../../src/capabilities/outbound/outbound.commands.js';
import { startConversation } from '../../src/capabilities/conversations/index.js';

describe('outbound collections', function () {
  this.timeout(240_000);
  let t: TestService;
  let owner: Member;
  let admin: string;
  let reader: string;
  let sender: string;
  let receiver: Receiver;
  let channelId: string;

  before(async () => {
    t = await startTestService('outbound', {
      env: { WEBHOOK_ALLOWLIST: '127.0.0.1', OUTBOUND_BATCH: '5', OUTBOUND_LEASE_MS: '2000', OUTBOUND_POLL_MS: '200', OUTBOUND_INTERVAL_MS: '25' },
    });
    owner = await newWorkspace(t);
    admin = (await mintKey(t, owner, [...ADMIN_SCOPES])).secret;
    reader = (await mintKey(t, owner, ['settings:read'])).secret;
    sender = (await mintKey(t, owner, ['conversations:write'])).secret;
    receiver = await new Receiver().start();
    channelId = (await createChannel(t, owner)).id;
    const put = await t.client.put(`/api/channels/${channelId}`, { webhook_url: receiver.url }, { key: admin });
    expect(put.status, put.text).to.equal(200);
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  const ok = async (r: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const a = await r;
    expect(a.status, a.text).to.equal(status);
    return a.body;
  };
  const worker = () => t.service.workers.find((w) => w.name === 'outbound') as OutboundWorker;
  /** Waits until a whole worker pass ran after the call (a negative check's "nothing more happens"). */
  const completedPass = async () => {
    await worker().tick();
    await worker().tick();
  };
  let n = 0;
  const contact = async (over: Record<string, unknown> = {}) =>
    (
      await ok(
        t.client.post(
          '/api/contacts',
          {
            external_id: `ext-${++n}-${Math.random().toString(36).slice(2)}`,
            name: `Person ${n}`,
            email: `p${n}-${Math.random().toString(36).slice(2, 6)}@example.com`,
            ...over,
          },
          { key: admin },
        ),
        201,
      )
    ).id as string;
  const create = (body: Record<string, unknown>, key = admin) =>
    t.client.post('/api/outbound', { name: `Campaign ${++n}`, channel_id: channelId, body: 'Hi {{contact.name | fallback: "there"}}', ...body }, { key });
  const get = (id: string) => ok(t.client.get(`/api/outbound/${id}`, { key: reader }));
  const recipients = async (id: string, status?: string) => {
    const all: any[] = [];
    let after: string | undefined;
    for (let i = 0; i < 100; i++) {
      const q = new URLSearchParams({ per_page: '150', ...(status ? { status } : {}), ...(after ? { starting_after: after } : {}) });
      const page = await ok(t.client.get(`/api/outbound/${id}/recipients?${q}`, { key: reader }));
      all.push(...page.data);
      after = page.pages.next?.starting_after;
      if (!after) break;
    }
    return all;
  };
  const untilState = (id: string, state: string) =>
    eventually(
      () => get(id),
      (c) => c.state === state,
      30_000,
    );

  it('creates, reads, lists (no pages), changes and deletes a draft; events are in the feed', async () => {
    const c = await ok(create({ audience: { contact_ids: [await contact()] }, subject: 'Hello' }), 201);
    expect(c).to.include({ type: 'outbound', state: 'draft', subject: 'Hello', channel_id: channelId, send_at: null });
    expect(c.counts).to.deep.equal({ audience_size: 0, pending: 0, sent: 0, failed: 0, skipped: 0, cancelled: 0 });
    expect(await get(c.id)).to.deep.equal(c);
    const list = await ok(t.client.get('/api/outbound', { key: reader }));
    expect(Object.keys(list).sort()).to.deep.equal(['data', 'type']);
    expect(list.data.map((x: any) => x.id)).to.include(c.id);
    const u = await ok(t.client.put(`/api/outbound/${c.id}`, { name: 'Renamed', body: 'Hello {{contact.name}}' }, { key: admin }));
    expect(u).to.include({ name: 'Renamed', body: 'Hello {{contact.name}}' });
    expect(await ok(t.client.delete(`/api/outbound/${c.id}`, { key: admin }))).to.deep.equal({ type: 'outbound', id: c.id, deleted: true });
    expect((await t.client.get(`/api/outbound/${c.id}`, { key: reader })).status).to.equal(404);
    const feed = await ok(t.client.get('/api/events?types=outbound.created,outbound.updated,outbound.deleted&per_page=100', { key: admin }));
    const mine = feed.data.filter((e: any) => e.aggregate_id === c.id).map((e: any) => e.type);
    expect(mine).to.deep.equal(['outbound.created', 'outbound.updated', 'outbound.deleted']);
  });

  it('refuses hostile and invalid input with 400 and field paths, never a 500', async () => {
    const realTag = (await ok(t.client.post('/api/tags', { name: `Validation ${++n}` }, { key: admin }), 201)).id as string;
    const bad: [Record<string, unknown>, string][] = [
      [{ audience: { contact_ids: ['nope'] } }, 'audience'],
      [{ audience: { contact_ids: [] } }, 'audience'],
      [{ audience: { tag_ids: ['x'], contact_ids: [] } }, 'audience'],
      [{ audience: 'everyone' }, 'audience'],
      [{ audience: { contact_ids: [null] } }, 'audience'],
      [{ audience: { query: '' } }, 'audience'],
      [{ audience: { tag_ids: [] }, channel_id: 'x' }, 'channel_id'],
      [{ audience: { tag_ids: ['REAL'] }, body: 'Hi {{contact.password}}' }, 'body'],
      [{ audience: { tag_ids: ['REAL'] }, body: '' }, 'body'],
      [{ audience: { tag_ids: ['6f1b2c1e-0000-4000-8000-000000000000'] }, send_at: 'tomorrow' }, 'send_at'],
      [{ audience: { tag_ids: ['6f1b2c1e-0000-4000-8000-000000000000'] }, name: '   ' }, 'name'],
      [{ audience: { tag_ids: ['6f1b2c1e-0000-4000-8000-000000000000'] }, extra: 1 }, 'extra'],
      [{ audience: { tag_ids: ['REAL'] }, channel_id: '6f1b2c1e-0000-4000-8000-000000000001' }, 'channel_id'],
      [{ audience: { tag_ids: ['REAL', '6f1b2c1e-0000-4000-8000-000000000000'] } }, 'audience.tag_ids.1'],
    ];
    for (const [raw, field] of bad) {
      const body = JSON.parse(JSON.stringify(raw).replaceAll('REAL', realTag));
      const r = await create(body);
      expect(r.status, `${JSON.stringify(body)} → ${r.text}`).to.equal(400);
      expect(r.body.errors.map((e: any) => e.field ?? '').join(' '), JSON.stringify(body)).to.include(field);
    }
    const raw = await t.client.post('/api/outbound', undefined, { key: admin, raw: '[1,2', headers: { 'content-type': 'application/json' } });
    expect(raw.status).to.equal(400);
    expect((await t.client.get('/api/outbound/not-a-uuid', { key: reader })).status).to.equal(404);
    expect((await t.client.get('/api/outbound/6f1b2c1e-0000-4000-8000-000000000000/recipients?status=nope', { key: reader })).status).to.equal(400);
  });

  it('holds scopes: settings:read reads, settings:write manages, conversations:write sends; another workspace gets 404', async () => {
    const c = await ok(create({ audience: { contact_ids: [await contact()] } }), 201);
    expect((await create({ audience: { contact_ids: [await contact()] } }, reader)).status).to.equal(403);
    expect((await t.client.put(`/api/outbound/${c.id}`, { name: 'x' }, { key: sender })).status).to.equal(403);
    expect((await t.client.get(`/api/outbound/${c.id}`, { key: sender })).status).to.equal(403);
    expect((await t.client.post(`/api/outbound/${c.id}/send`, undefined, { key: reader })).status).to.equal(403);
    expect((await t.client.post(`/api/outbound/${c.id}/cancel`, undefined, { key: reader })).status).to.equal(403);

    const other = await newWorkspace(t, 'Other');
    const otherKey = (await mintKey(t, other, ['settings:read', 'settings:write', 'conversations:write'])).secret;
    for (const r of [
      await t.client.get(`/api/outbound/${c.id}`, { key: otherKey }),
      await t.client.get(`/api/outbound/${c.id}/recipients`, { key: otherKey }),
      await t.client.put(`/api/outbound/${c.id}`, { name: 'x' }, { key: otherKey }),
      await t.client.delete(`/api/outbound/${c.id}`, { key: otherKey }),
      await t.client.post(`/api/outbound/${c.id}/send`, undefined, { key: otherKey }),
      await t.client.post(`/api/outbound/${c.id}/cancel`, undefined, { key: otherKey }),
    ]) {
      expect(r.status, r.text).to.equal(404);
    }
    expect((await ok(t.client.get('/api/outbound', { key: otherKey }))).data).to.deep.equal([]);
    // Another workspace's channel is not a channel of this one.
    expect(
      (await t.client.post('/api/outbound', { name: 'x', channel_id: channelId, body: 'b', audience: { contact_ids: [c.id] } }, { key: otherKey })).status,
    ).to.equal(400);
  });

  it('sends: one conversation per contact with the rendered template, the bridge gets each first part; skipped and failed recipients recorded, the rest go on', async () => {
    const names = ['Ada', 'Grace', 'Linus'];
    const good: string[] = [];
    for (const name of names) good.push(await contact({ name }));
    const archived = await contact();
    await ok(t.client.post(`/api/contacts/${archived}/archive`, {}, { key: admin }));
    const erased = await contact();
    await ok(t.client.delete(`/api/contacts/${erased}`, { key: admin }));
    const unreachable = await contact({ external_id: undefined, email: `nobody-${n}@example.com` });
    const unknown = '6f1b2c1e-0000-4000-8000-0000000000aa';
    const audience = [good[0], archived, good[1], erased, unreachable, unknown, good[2], good[0]];
    const c = await ok(
      create({ audience: { contact_ids: audience }, subject: 'News', body: 'Hi {{contact.name | fallback: "there"}}, from {{member.name}}' }),
      201,
    );
    const before = receiver.received.length;

    const sent = await ok(t.client.post(`/api/outbound/${c.id}/send`, undefined, { key: sender }));
    expect(sent.state).to.be.oneOf(['sending', 'sent']);
    expect(sent.counts.audience_size).to.equal(7);
    const done = await untilState(c.id, 'sent');
    expect(done.counts).to.deep.equal({ audience_size: 7, pending: 0, sent: 3, failed: 1, skipped: 3, cancelled: 0 });
    expect(done.sending_at).to.be.a('string');
    expect(done.sent_at).to.be.a('string');

    const rs = await recipients(c.id);
    expect(rs.map((r) => r.contact_id)).to.deep.equal([good[0], archived, good[1], erased, unreachable, unknown, good[2]]);
    const by = new Map(rs.map((r) => [r.contact_id, r]));
    expect(by.get(archived)).to.include({ status: 'skipped' });
    expect(by.get(archived).error.code).to.equal('archived');
    expect(by.get(erased).error.code).to.equal('erased');
    expect(by.get(unknown).error.code).to.equal('unknown_contact');
    expect(by.get(unreachable)).to.include({ status: 'failed', conversation_id: null });
    expect(by.get(unreachable).error.code).to.equal('contact_unreachable');
    expect((await recipients(c.id, 'sent')).map((r) => r.contact_id)).to.deep.equal(good);

    for (const [i, id] of good.entries()) {
      const r = by.get(id);
      const conv = await ok(t.client.get(`/api/conversations/${r.conversation_id}`, { key: admin }));
      expect(conv.contact_id).to.equal(id);
      expect(conv.subject).to.equal('News');
      expect(conv.parts[0].body).to.match(new RegExp(`^Hi ${names[i]}, from `));
    }
    const parts = await eventually(
      () =>
        receiver
          .bodies()
          .slice(before)
          .filter((b) => b.type === 'conversation_part.created'),
      (b) => b.length >= 3,
      20_000,
    );
    expect(new Set(parts.map((b: any) => b.payload.conversation_id))).to.deep.equal(new Set(good.map((id) => by.get(id).conversation_id)));

    // Nothing more happens: completed passes start no second conversation.
    await completedPass();
    const convs = await ok(t.client.get(`/api/conversations?channel_id=${channelId}&per_page=150`, { key: admin }));
    expect(convs.data.filter((x: any) => good.includes(x.contact_id))).to.have.length(3);
    const events = await ok(
      t.client.get('/api/events?types=outbound.sending,outbound.sent,outbound_recipient.sent,outbound_recipient.failed&per_page=100', { key: admin }),
    );
    const mine = events.data.filter((e: any) => e.aggregate_id === c.id).map((e: any) => e.type);
    expect(mine.filter((x: string) => x === 'outbound_recipient.sent')).to.have.length(3);
    expect(mine[0]).to.equal('outbound.sending');
    expect(mine.at(-1)).to.equal('outbound.sent');

    // Only a draft can change, be deleted or be sent again.
    for (const r of [
      await t.client.put(`/api/outbound/${c.id}`, { name: 'x' }, { key: admin }),
      await t.client.delete(`/api/outbound/${c.id}`, { key: admin }),
      await t.client.post(`/api/outbound/${c.id}/send`, undefined, { key: sender }),
      await t.client.post(`/api/outbound/${c.id}/cancel`, undefined, { key: sender }),
    ]) {
      expect(r.status, r.text).to.equal(409);
    }
  });

  it('freezes the audience at send time: contacts changed later change nothing', async () => {
    const a = await contact({ name: 'Frozen' });
    const c = await ok(create({ audience: { contact_ids: [a] } }), 201);
    await ok(t.client.post(`/api/outbound/${c.id}/send`, undefined, { key: sender }));
    await untilState(c.id, 'sent');
    await ok(t.client.post(`/api/contacts/${a}/archive`, {}, { key: admin }));
    await completedPass();
    const rs = await recipients(c.id);
    expect(rs).to.have.length(1);
    expect(rs[0].status).to.equal('sent');
  });

  it('an audience by tag is frozen at send time: contacts tagged or untagged later change nothing', async () => {
    const tag = (await ok(t.client.post('/api/tags', { name: `Frozen tag ${++n}` }, { key: admin }), 201)).id as string;
    const tagged = [await contact({ name: 'T1' }), await contact({ name: 'T2' })];
    const late = await contact({ name: 'T3' });
    await contact({ name: 'Untagged' });
    for (const id of tagged) await ok(t.client.post(`/api/contacts/${id}/tags`, { tag_id: tag }, { key: admin }));
    const c = await ok(create({ audience: { tag_ids: [tag] } }), 201);
    const s = await ok(t.client.post(`/api/outbound/${c.id}/send`, undefined, { key: sender }));
    expect(s.counts.audience_size).to.equal(2);
    await ok(t.client.post(`/api/contacts/${late}/tags`, { tag_id: tag }, { key: admin }));
    await ok(t.client.delete(`/api/contacts/${tagged[0]}/tags/${tag}`, { key: admin }));
    await untilState(c.id, 'sent');
    await completedPass();
    const rs = await recipients(c.id);
    expect(rs.map((r) => r.contact_id).sort()).to.deep.equal([...tagged].sort());
    expect(rs.map((r) => r.status)).to.deep.equal(['sent', 'sent']);
  });

  it('schedules a send for send_at and resolves the audience when the schedule fires', async () => {
    const a = await contact({ name: 'Later' });
    const at = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const c = await ok(create({ audience: { contact_ids: [a] }, send_at: at }), 201);
    const s = await ok(t.client.post(`/api/outbound/${c.id}/send`, undefined, { key: sender }));
    expect(s).to.include({ state: 'scheduled', send_at: at });
    expect(s.scheduled_at).to.be.a('string');
    const b = await contact({ name: 'Added before it fires' });
    // A scheduled collection is no draft any more.
    expect((await t.client.put(`/api/outbound/${c.id}`, { audience: { contact_ids: [a, b] } }, { key: admin })).status).to.equal(409);
    await completedPass();
    expect((await get(c.id)).state).to.equal('scheduled');
    (t.clock as any).advance(3600_000 + 1000);
    await completedPass();
    const done = await untilState(c.id, 'sent');
    expect(done.counts.sent).to.equal(1);
  });

  it('cancels mid-send: every recipient is sent with its conversation, or cancelled with none; nothing half', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await contact({ name: `Bulk ${i}` }));
    const c = await ok(create({ audience: { contact_ids: ids } }), 201);
    await ok(t.client.post(`/api/outbound/${c.id}/send`, undefined, { key: sender }));
    await eventually(
      () => get(c.id),
      (x) => x.counts.sent >= 1 || x.state === 'sent',
      20_000,
    );
    const cancelled = await t.client.post(`/api/outbound/${c.id}/cancel`, undefined, { key: sender });
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body.state).to.equal('cancelled');
    await completedPass();
    const rs = await recipients(c.id);
    expect(rs).to.have.length(30);
    const convs = await ok(t.client.get(`/api/conversations?channel_id=${channelId}&per_page=150`, { key: admin }));
    const started = new Set(convs.data.filter((x: any) => ids.includes(x.contact_id)).map((x: any) => x.contact_id));
    for (const r of rs) {
      expect(r.status, JSON.stringify(r)).to.be.oneOf(['sent', 'cancelled']);
      expect(started.has(r.contact_id), JSON.stringify(r)).to.equal(r.status === 'sent');
      expect(r.conversation_id === null).to.equal(r.status === 'cancelled');
    }
    const final = await get(c.id);
    expect(final.counts.sent + final.counts.cancelled).to.equal(30);
    expect(final.counts.pending).to.equal(0);
    expect(final.counts.cancelled, 'cancelled mid-send').to.be.greaterThan(0);
  });

  it('concurrent deliveries of one recipient (two workers, a retried batch) start one conversation; a start on an existing id is refused', async () => {
    const a = await contact({ name: 'Raced' });
    const c = await ok(create({ audience: { contact_ids: [a] } }), 201);
    const { shell } = t.service.deps;
    const ctx = () => ({ tenantId: owner.workspaceId, now: t.clock.now(), actor: { type: 'system' as const, id: 'test' } });
    await ok(t.client.post(`/api/outbound/${c.id}/send`, undefined, { key: sender }));
    // Five deliveries of the same recipient at once, racing the service's own worker.
    const results = await Promise.all(Array.from({ length: 5 }, () => shell.execute(ctx(), deliverRecipient({ collectionId: c.id, contactId: a }))));
    expect(results.filter(({ events }) => events.some((e) => e.type === 'conversation.created')).length).to.be.at.most(1);
    const done = await untilState(c.id, 'sent');
    expect(done.counts).to.include({ sent: 1, pending: 0 });
    const conversationId = recipientConversationId(owner.workspaceId, c.id, a);
    const [r] = await recipients(c.id);
    expect(r.conversation_id).to.equal(conversationId);
    const convs = await ok(t.client.get(`/api/conversations?contact_id=${a}`, { key: admin }));
    expect(convs.data.map((x: any) => x.id)).to.deep.equal([conversationId]);
    // Once more, after the fact: nothing.
    expect((await shell.execute(ctx(), deliverRecipient({ collectionId: c.id, contactId: a }))).events).to.deep.equal([]);
    // The conversations decider itself refuses a start on an id that exists.
    const again = startConversation({
      conversationId,
      partId: '6f1b2c1e-0000-4000-8000-0000000000bb',
      newContactId: a,
      channelId,
      body: 'again',
      subject: null,
      assigneeId: null,
      author: { type: 'member', id: owner.memberId },
      contactId: a,
      contact: null,
      refuseExisting: true,
    });
    let refused: any;
    // Right after the previous command resolved, with no I/O between: the shell's queue must not strand it.
    await shell.execute(ctx(), again).catch((e) => (refused = e));
    expect(refused?.code).to.equal('conversation_exists');
  });

  it('an audience by filter query (the contacts filter language) is resolved at send time; a bad query is 400 under audience.query', async () => {
    const mark = `Q${++n}x`;
    const [a, b, archived] = [await contact({ name: `${mark} Ada` }), await contact({ name: `${mark} Bob` }), await contact({ name: `${mark} Cy` })];
    await contact({ name: `Not ${mark}` });
    await ok(t.client.post(`/api/contacts/${archived}/archive`, {}, { key: admin }));
    const query = { field: 'name', operator: '^', value: mark };
    const c = await ok(create({ audience: { query } }), 201);
    expect(c.audience).to.deep.equal({ query });
    const late = await contact({ name: `${mark} Late` });
    const s = await ok(t.client.post(`/api/outbound/${c.id}/send`, undefined, { key: sender }));
    expect(s.counts.audience_size).to.equal(4);
    await ok(t.client.put(`/api/contacts/${b}`, { name: 'Renamed away' }, { key: admin }));
    await contact({ name: `${mark} Too late` });
    const done = await untilState(c.id, 'sent');
    expect(done.counts).to.include({ audience_size: 4, sent: 3, skipped: 1 });
    const rs = await recipients(c.id);
    expect(rs.map((r) => r.contact_id).sort()).to.deep.equal([a, b, archived, late].sort());
    expect(rs.find((r) => r.contact_id === archived).error.code).to.equal('archived');

    for (const bad of [
      { field: 'password', operator: '=', value: 'x' },
      { field: 'name', operator: '<', value: 'x' },
      { operator: 'AND', value: [] },
    ]) {
      const r = await create({ audience: { query: bad } });
      expect(r.status, r.text).to.equal(400);
      expect(r.body.errors[0].code).to.equal('invalid_query');
      expect(r.body.errors[0].field).to.match(/^audience\.query/);
    }
  });

  it('the 151st collection is 422 limit_reached', async () => {
    const a = await contact();
    const have = (await ok(t.client.get('/api/outbound', { key: reader }))).data.length;
    for (let i = have; i < 150; i++) await ok(create({ audience: { contact_ids: [a] } }), 201);
    const r = await create({ audience: { contact_ids: [a] } });
    expect(r.status, r.text).to.equal(422);
    expect(r.body.errors[0].code).to.equal('limit_reached');
    expect((await ok(t.client.get('/api/outbound', { key: reader }))).data).to.have.length(150);
  });
});
