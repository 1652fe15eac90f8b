import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';
import { addMember, mintKey, newWorkspace, type Member, type TestService } from '../support/service.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { eventually } from '../support/events.js';
import type { Receiver } from '../webhooks/receiver.js';

type Reply = { status: number; text: string; body: any };

describe('saved replies', function () {
  this.timeout(120_000);
  const fx = capabilityFixture('saved-replies', {
    scopes: ['settings:write', 'conversations:read', 'events:read'],
    webhook: { events: ['saved_reply.created', 'saved_reply.updated', 'saved_reply.deleted'] },
  });
  let t: TestService;
  let owner: Member;
  let key: string;
  let reader: string;
  let receiver: Receiver;

  before(async () => {
    ({ t, owner, key, receiver } = fx);
    reader = (await mintKey(t, owner, ['conversations:read'])).secret;
  });

  const create = (body: Record<string, unknown>, k = key) => t.client.post('/api/saved-replies', body, { key: k });
  const ok = (r: Promise<Reply>, status = 200) => fx.ok(r, status);
  const feed = async (k = key) =>
    (await t.client.get('/api/events?types=saved_reply.created,saved_reply.updated,saved_reply.deleted&per_page=100', { key: k })).body.data as {
      type: string;
      aggregate_id: string;
      payload: any;
    }[];

  it('creates, gets, lists (no pages), changes and deletes a saved reply, with its events in the feed', async () => {
    const r = await ok(create({ name: 'Welcome', body: 'Hi {{contact.name | fallback: "there"}}!' }), 201);
    expect(r).to.include({ type: 'saved_reply', name: 'Welcome', body: 'Hi {{contact.name | fallback: "there"}}!' });
    expect(await ok(t.client.get(`/api/saved-replies/${r.id}`, { key: reader }))).to.deep.equal(r);

    const list = await ok(t.client.get('/api/saved-replies', { key: reader }));
    expect(Object.keys(list).sort()).to.deep.equal(['data', 'type']);
    expect(list.type).to.equal('list');
    expect(list.data.map((x: { id: string }) => x.id)).to.include(r.id);

    const u = await ok(t.client.put(`/api/saved-replies/${r.id}`, { body: 'Hello {{contact.name}}' }, { key }));
    expect(u).to.include({ id: r.id, name: 'Welcome', body: 'Hello {{contact.name}}' });
    const renamed = await ok(t.client.put(`/api/saved-replies/${r.id}`, { name: 'Greeting' }, { key }));
    expect(renamed).to.include({ name: 'Greeting', body: 'Hello {{contact.name}}' });
    const before = (await feed()).length;
    await ok(t.client.put(`/api/saved-replies/${r.id}`, { name: 'Greeting', body: 'Hello {{contact.name}}' }, { key }));
    expect((await feed()).length, 'an update that changes nothing appends nothing').to.equal(before);

    expect(await ok(t.client.delete(`/api/saved-replies/${r.id}`, { key }))).to.deep.equal({ type: 'saved_reply', id: r.id, deleted: true });
    expect((await t.client.get(`/api/saved-replies/${r.id}`, { key })).status).to.equal(404);
    expect((await t.client.put(`/api/saved-replies/${r.id}`, { name: 'x' }, { key })).status).to.equal(404);
    expect((await t.client.delete(`/api/saved-replies/${r.id}`, { key })).status).to.equal(404);
    expect((await t.client.get('/api/saved-replies/not-a-uuid', { key })).status).to.equal(404);

    const mine = (await feed()).filter((e) => e.aggregate_id === r.id);
    expect(mine.map((e) => e.type)).to.deep.equal(['saved_reply.created', 'saved_reply.updated', 'saved_reply.updated', 'saved_reply.deleted']);
    expect(mine[0]!.payload).to.deep.equal({ id: r.id, name: 'Welcome', body: 'Hi {{contact.name | fallback: "there"}}!' });
    expect(mine[1]!.payload).to.deep.equal({ id: r.id, body: 'Hello {{contact.name}}' });
    expect(mine[2]!.payload).to.deep.equal({ id: r.id, name: 'Greeting' });
    expect(mine[3]!.payload).to.deep.equal({ id: r.id });

    // and at a webhook receiver, which orders and deduplicates on seq (spec 6.1: deliveries are at least once, and one
    // retried after a slow answer arrives after the next event's; under load the update came before the create)
    const pushedBySeq = () => receiver.inSeqOrder((b) => b.aggregate_id === r.id);
    await eventually(pushedBySeq, (p) => p.length >= 4);
    const pushed = pushedBySeq();
    expect(pushed.map((b) => b.type)).to.deep.equal(['saved_reply.created', 'saved_reply.updated', 'saved_reply.updated', 'saved_reply.deleted']);
    expect(pushed[0]).to.include({ aggregate_type: 'saved_reply', tenant_id: owner.workspaceId });
  });

  it('keeps names unique in the workspace ignoring case (409 saved_reply_exists); a deleted reply frees its name', async () => {
    const a = await ok(create({ name: 'Refund policy', body: 'a' }), 201);
    const again = await create({ name: 'REFUND POLICY', body: 'b' });
    expect(again.status).to.equal(409);
    expect(again.body.errors[0].code).to.equal('saved_reply_exists');
    expect(again.body.errors[0].message).to.include(a.id);
    const b = await ok(create({ name: 'Shipping', body: 'b' }), 201);
    expect((await t.client.put(`/api/saved-replies/${b.id}`, { name: 'refund Policy' }, { key })).status).to.equal(409);
    // a reply may change the case of its own name
    expect(await ok(t.client.put(`/api/saved-replies/${a.id}`, { name: 'Refund Policy' }, { key }))).to.include({ name: 'Refund Policy' });
    await ok(t.client.delete(`/api/saved-replies/${a.id}`, { key }));
    await ok(create({ name: 'refund policy', body: 'c' }), 201);
    // the list is by name, ignoring case
    const names = (await ok(t.client.get('/api/saved-replies', { key }))).data.map((x: { name: string }) => x.name);
    expect(names).to.deep.equal([...names].sort((x: string, y: string) => x.toLowerCase().localeCompare(y.toLowerCase())));
  });

  it('validates with field paths, names the unknown placeholder, and changes nothing', async () => {
    const before = (await feed()).length;
    const empty = await create({ name: '', body: '' });
    expect(empty.status).to.equal(400);
    expect(empty.body.errors.map((e: { field: string }) => e.field)).to.include.members(['name', 'body']);
    expect((await create({ name: 'x' })).body.errors[0]).to.include({ code: 'missing_field', field: 'body' });
    expect((await create({ name: 'x', body: 'y', extra: 1 })).body.errors[0]).to.include({ code: 'unknown_field', field: 'extra' });
    expect((await create({ name: '   ', body: 'y' })).body.errors[0]).to.include({ field: 'name' });
    expect((await create({ name: 'x', body: 'y'.repeat(20_001) })).body.errors[0]).to.include({ field: 'body' });

    const unknown = await create({ name: 'Typo', body: 'Hi {{contact.first_name}}' });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errors[0]).to.include({ code: 'unknown_placeholder', field: 'body' });
    expect(unknown.body.errors[0].message).to.include('{{contact.first_name}}');
    const malformed = await create({ name: 'Broken', body: 'Hi {{contact.name | fallback: there}}' });
    expect(malformed.body.errors[0]).to.include({ code: 'invalid_placeholder', field: 'body' });

    const r = await ok(create({ name: 'Valid', body: 'ok' }), 201);
    const bad = await t.client.put(`/api/saved-replies/${r.id}`, { body: '{{member.email}}' }, { key });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0]).to.include({ code: 'unknown_placeholder', field: 'body' });
    expect((await t.client.put(`/api/saved-replies/${r.id}`, {}, { key })).status).to.equal(400);
    expect((await feed()).length).to.equal(before + 1);
  });

  it('keeps workspaces apart (404) and needs settings:write to manage, conversations:read to read', async () => {
    const r = await ok(create({ name: 'Ours', body: 'ours' }), 201);
    const other = await newWorkspace(t, 'Other');
    const otherKey = (await mintKey(t, other, ['settings:write', 'conversations:read'])).secret;
    expect((await t.client.get(`/api/saved-replies/${r.id}`, { key: otherKey })).status).to.equal(404);
    expect((await t.client.put(`/api/saved-replies/${r.id}`, { name: 'Theirs' }, { key: otherKey })).status).to.equal(404);
    expect((await t.client.delete(`/api/saved-replies/${r.id}`, { key: otherKey })).status).to.equal(404);
    expect(
      (await t.client.post(`/api/saved-replies/${r.id}/render`, { conversation_id: '00000000-0000-4000-8000-000000000000' }, { key: otherKey })).status,
    ).to.equal(404);
    expect((await ok(t.client.get('/api/saved-replies', { key: otherKey }))).data).to.deep.equal([]);
    // the same name in another workspace is fine
    await ok(create({ name: 'Ours', body: 'theirs' }, otherKey), 201);

    const denied = async (r: Promise<Reply>) => {
      const a = await r;
      expect(a.status, a.text).to.equal(403);
      expect(a.body.errors[0].code).to.equal('missing_scope');
    };
    await denied(create({ name: 'By reader', body: 'x' }, reader));
    await denied(t.client.put(`/api/saved-replies/${r.id}`, { name: 'x' }, { key: reader }));
    await denied(t.client.delete(`/api/saved-replies/${r.id}`, { key: reader }));
    await ok(t.client.get('/api/saved-replies', { key: reader }));
    await ok(t.client.get(`/api/saved-replies/${r.id}`, { key: reader }));
    const settingsOnly = (await mintKey(t, owner, ['settings:write'])).secret;
    await denied(t.client.get('/api/saved-replies', { key: settingsOnly }));
    await denied(t.client.get(`/api/saved-replies/${r.id}`, { key: settingsOnly }));
    await denied(t.client.post(`/api/saved-replies/${r.id}/render`, { conversation_id: '00000000-0000-4000-8000-000000000000' }, { key: settingsOnly }));
    expect((await t.client.get('/api/saved-replies')).status).to.equal(401);
  });

  it('renders for a conversation: its contact, the caller as the member, fallbacks and undefined variables', async () => {
    const admin = await addMember(t, owner, 'admin'); // named "New Member"
    const agentKey = (await mintKey(t, admin, ['conversations:read'])).secret;
    const ch = await createChannel(t, owner);
    const post = await postInbound(
      t,
      ch.id,
      ch.secret,
      inboundBody({ contact: { external_id: 'render-1', name: 'Grace Hopper', email: 'grace@example.com' } }),
    );
    expect(post.status, post.text).to.equal(201);
    const { conversation_id: conversationId, contact_id: contactId } = post.body;
    const contacts = (await mintKey(t, owner, ['contacts:read', 'contacts:write', 'contacts:delete'])).secret;
    await ok(t.client.put(`/api/contacts/${contactId}`, { custom_attributes: { plan: 'pro', seats: 3, vip: true } }, { key: contacts }));

    const reply = await ok(
      create({
        name: 'Everything',
        body:
          'Hi {{contact.name}} <{{contact.email}}>, plan {{contact.custom_attributes.plan}}/{{contact.custom_attributes.seats}}/{{contact.custom_attributes.vip}}, ' +
          'region {{contact.custom_attributes.region | fallback: "unknown"}}{{contact.custom_attributes.tier}}, re {{conversation.id}}. — {{member.name}} {{#raw}} {{{contact.name}}}',
      }),
      201,
    );
    const render = (k = agentKey, id = reply.id, conversation = conversationId) =>
      t.client.post(`/api/saved-replies/${id}/render`, { conversation_id: conversation }, { key: k });
    expect(await ok(render())).to.deep.equal({
      type: 'rendered_reply',
      body: `Hi Grace Hopper <grace@example.com>, plan pro/3/true, region unknown, re ${conversationId}. — New Member {{#raw}} {Grace Hopper}`,
      undefined_variables: ['contact.custom_attributes.tier'],
    });
    // the member is the caller: the owner, through a session
    const members = await ok(t.client.get('/api/members?per_page=100', { cookie: owner.cookie, workspace: owner.workspaceId }));
    const ownerName = members.data.find((m: { id: string }) => m.id === owner.memberId).name as string | null;
    const asOwner = await ok(
      t.client.post(`/api/saved-replies/${reply.id}/render`, { conversation_id: conversationId }, { cookie: owner.cookie, workspace: owner.workspaceId }),
    );
    expect(asOwner.body).to.include(`— ${ownerName ?? ''} {{#raw}}`);
    expect(asOwner.undefined_variables).to.deep.equal(ownerName ? ['contact.custom_attributes.tier'] : ['contact.custom_attributes.tier', 'member.name']);

    // values never become placeholders, and nothing is escaped
    const tricky = await ok(create({ name: 'Tricky', body: '<p>{{contact.name}}</p>' }), 201);
    await ok(t.client.put(`/api/contacts/${contactId}`, { name: '{{member.name}} & <b>' }, { key: contacts }));
    expect((await ok(render(agentKey, tricky.id))).body).to.equal('<p>{{member.name}} & <b></p>');

    // an Idempotency-Key is refused: a stored answer would keep personal data past an erasure
    const keyed = await t.client.post(
      `/api/saved-replies/${reply.id}/render`,
      { conversation_id: conversationId },
      { key: agentKey, headers: { 'idempotency-key': 'render-1' } },
    );
    expect(keyed.status).to.equal(400);
    expect(keyed.body.errors[0]).to.include({ code: 'idempotency_key_not_allowed' });

    // unknown conversations, and another workspace's
    expect((await render(agentKey, reply.id, '00000000-0000-4000-8000-000000000000')).body.errors[0]).to.include({
      code: 'unknown_conversation',
      field: 'conversation_id',
    });
    expect((await t.client.post(`/api/saved-replies/${reply.id}/render`, { conversation_id: 'nope' }, { key: agentKey })).body.errors[0]).to.include({
      field: 'conversation_id',
    });
    expect((await render(agentKey, '00000000-0000-4000-8000-000000000000')).status).to.equal(404);

    // an erased contact: its values are gone, so fallbacks apply or the variables are undefined
    await ok(t.client.delete(`/api/contacts/${contactId}`, { key: contacts }));
    const fallbacks = await ok(
      create({
        name: 'After erasure',
        body: 'Hi {{contact.name | fallback: "there"}} {{contact.email}}{{contact.custom_attributes.plan}} ({{conversation.id}})',
      }),
      201,
    );
    expect(await ok(render(agentKey, fallbacks.id))).to.deep.equal({
      type: 'rendered_reply',
      body: `Hi there  (${conversationId})`,
      undefined_variables: ['contact.email', 'contact.custom_attributes.plan'],
    });
  });

  it('holds at most 150 saved replies: the 151st is 422 limit_reached, also under concurrent creates', async () => {
    const w = await newWorkspace(t, 'Full');
    const k = (await mintKey(t, w, ['settings:write', 'conversations:read'])).secret;
    for (let i = 0; i < 146; i++) await ok(create({ name: `Reply ${i}`, body: `Body ${i}` }, k), 201);
    // eight at once for the last four places: exactly four win
    const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => create({ name: `Racer ${i}`, body: 'x' }, k)));
    expect(racing.filter((r) => r.status === 201)).to.have.length(4);
    const refused = racing.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).to.deep.equal([422, 422, 422, 422]);
    expect(refused[0]!.body.errors[0].code).to.equal('limit_reached');

    const list = await ok(t.client.get('/api/saved-replies', { key: k }));
    expect(list.data).to.have.length(150);
    expect(list).to.not.have.property('pages');
    const last = await create({ name: 'One too many', body: 'x' }, k);
    expect(last.status).to.equal(422);
    expect(last.body.errors[0].code).to.equal('limit_reached');

    await ok(t.client.delete(`/api/saved-replies/${list.data[0].id}`, { key: k }));
    await ok(create({ name: 'One too many', body: 'x' }, k), 201);
  });
});
