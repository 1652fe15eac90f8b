import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';
import { inboundBody, postInbound } from '../support/channels.js';
import { eventually } from '../support/events.js';
import { mintKey, newWorkspace, type Member, type TestService } from '../support/service.js';
import type { Receiver } from '../webhooks/receiver.js';

type Reply = { status: number; text: string; body: any };
type FeedEvent = { seq: number; type: string; aggregate_id: string; payload: any };

const TAG_EVENTS = ['tag.created', 'tag.renamed', 'tag.deleted', 'conversation.tagged', 'conversation.untagged', 'contact.tagged', 'contact.untagged'];

describe('tags: a catalog, and tags on conversations and contacts as deltas', function () {
  this.timeout(180_000);
  const fx = capabilityFixture('tags', {
    scopes: ['settings:write', 'conversations:read', 'conversations:write', 'contacts:read', 'contacts:write', 'contacts:delete', 'events:read'],
    webhook: { events: TAG_EVENTS },
  });
  let t: TestService;
  let owner: Member;
  let admin: string; // settings:write and everything tagging needs
  let agent: string; // conversations and contacts, no settings
  let receiver: Receiver;
  let channel: { id: string; secret: string };

  before(async () => {
    ({ t, owner, key: admin, receiver, channel } = fx);
    agent = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'contacts:read', 'contacts:write'])).secret;
  });

  const ok = (r: Promise<Reply>, status = 200) => fx.ok(r, status);
  const tag = async (name: string, key = admin) => (await ok(t.client.post('/api/tags', { name }, { key }), 201)) as { id: string; name: string };
  const conversation = async () => (await ok(postInbound(t, channel.id, channel.secret, inboundBody()), 201)).conversation_id as string;
  const contact = async () =>
    (await ok(t.client.post('/api/contacts', { email: `c-${Math.random().toString(36).slice(2)}@example.com` }, { key: admin }), 201)).id as string;
  const getConversation = async (id: string) => ok(t.client.get(`/api/conversations/${id}`, { key: agent }));
  const getContact = async (id: string) => ok(t.client.get(`/api/contacts/${id}`, { key: agent }));
  const head = () => t.service.deps.store.head(owner.workspaceId);

  async function feed(types = TAG_EVENTS): Promise<FeedEvent[]> {
    const out: FeedEvent[] = [];
    let next: string | null = null;
    for (let i = 0; i < 200; i++) {
      const r = await t.client.get(`/api/events?per_page=100&types=${types.join(',')}${next ? `&starting_after=${next}` : ''}`, { key: admin });
      expect(r.status, r.text).to.equal(200);
      out.push(...r.body.data);
      next = r.body.pages.next?.starting_after ?? null;
      if (!next) break;
    }
    return out;
  }

  it('creates, lists (unpaginated, by name), gets, renames and deletes tags; names are unique ignoring case', async () => {
    const billing = await tag('Billing');
    expect(billing).to.include({ type: 'tag', name: 'Billing' });
    const again = await t.client.post('/api/tags', { name: 'BILLING' }, { key: admin });
    expect(again.status).to.equal(409);
    expect(again.body.errors[0]).to.include({ code: 'tag_exists' });
    const apple = await tag('apple');
    const list = await ok(t.client.get('/api/tags', { key: agent }));
    expect(Object.keys(list).sort()).to.deep.equal(['data', 'type']);
    const names = list.data.map((x: { name: string }) => x.name);
    expect(names.indexOf('apple')).to.be.lessThan(names.indexOf('Billing'));
    expect(await ok(t.client.get(`/api/tags/${billing.id}`, { key: agent }))).to.deep.equal(billing);

    const before = await head();
    expect(await ok(t.client.put(`/api/tags/${billing.id}`, { name: 'Billing' }, { key: admin }))).to.include({ name: 'Billing' });
    expect(await head(), 'a rename to the same name appends nothing').to.equal(before);
    expect((await t.client.put(`/api/tags/${billing.id}`, { name: 'APPLE' }, { key: admin })).status).to.equal(409);
    expect(await ok(t.client.put(`/api/tags/${billing.id}`, { name: 'Invoices' }, { key: admin }))).to.include({ id: billing.id, name: 'Invoices' });

    expect(await ok(t.client.delete(`/api/tags/${apple.id}`, { key: admin }))).to.deep.equal({ type: 'tag', id: apple.id, deleted: true });
    expect((await t.client.get(`/api/tags/${apple.id}`, { key: admin })).status).to.equal(404);
    expect((await t.client.delete(`/api/tags/${apple.id}`, { key: admin })).status).to.equal(404);
    expect((await tag('Apple')).name, 'a deleted tag frees its name').to.equal('Apple');

    const mine = (await feed()).filter((e) => e.aggregate_id === billing.id || e.aggregate_id === apple.id);
    expect(mine.map((e) => [e.type, e.payload.name])).to.deep.equal([
      ['tag.created', 'Billing'],
      ['tag.created', 'apple'],
      ['tag.renamed', 'Invoices'],
      ['tag.deleted', 'apple'],
    ]);
    await eventually(
      () => receiver.bodies().filter((b) => b.aggregate_id === billing.id || b.aggregate_id === apple.id).length,
      (n) => n >= 4,
    );
    expect(
      receiver
        .bodies()
        .filter((b) => b.aggregate_id === billing.id)
        .sort((x, y) => x.seq - y.seq)
        .map((b) => b.type),
    ).to.deep.equal(['tag.created', 'tag.renamed']);
  });

  it('tags conversations and contacts idempotently, shows them as {id, name}, and a rename is one event that shows everywhere', async () => {
    const vip = await tag('VIP');
    const urgent = await tag('Urgent');
    const c = await conversation();
    const k = await contact();

    const tagged = await ok(t.client.post(`/api/conversations/${c}/tags`, { tag_id: vip.id }, { key: agent }));
    expect(tagged.tags).to.deep.equal([{ id: vip.id, name: 'VIP' }]);
    const at = await head();
    expect((await ok(t.client.post(`/api/conversations/${c}/tags`, { tag_id: vip.id }, { key: agent }))).tags).to.deep.equal([{ id: vip.id, name: 'VIP' }]);
    expect(await head(), 'tagging twice appends nothing').to.equal(at);
    await ok(t.client.post(`/api/conversations/${c}/tags`, { tag_id: urgent.id }, { key: agent }));
    expect((await getConversation(c)).tags, 'by name').to.deep.equal([
      { id: urgent.id, name: 'Urgent' },
      { id: vip.id, name: 'VIP' },
    ]);
    const listed = (await ok(t.client.get('/api/conversations?per_page=100', { key: agent }))).data.find((x: { id: string }) => x.id === c);
    expect(listed.tags).to.have.length(2);

    expect((await ok(t.client.post(`/api/contacts/${k}/tags`, { tag_id: vip.id }, { key: agent }))).tags).to.deep.equal([{ id: vip.id, name: 'VIP' }]);
    expect((await ok(t.client.post(`/api/contacts/${k}/tags`, { tag_id: vip.id }, { key: agent }))).tags).to.have.length(1);

    const beforeRename = await head();
    await ok(t.client.put(`/api/tags/${vip.id}`, { name: 'Very Important' }, { key: admin }));
    expect(await head(), 'a rename is one catalog event').to.equal(beforeRename + 1);
    expect((await getConversation(c)).tags).to.deep.equal([
      { id: urgent.id, name: 'Urgent' },
      { id: vip.id, name: 'Very Important' },
    ]);
    expect((await getContact(k)).tags).to.deep.equal([{ id: vip.id, name: 'Very Important' }]);

    expect((await ok(t.client.delete(`/api/conversations/${c}/tags/${urgent.id}`, { key: agent }))).tags).to.deep.equal([
      { id: vip.id, name: 'Very Important' },
    ]);
    const off = await head();
    expect((await ok(t.client.delete(`/api/conversations/${c}/tags/${urgent.id}`, { key: agent }))).tags).to.have.length(1);
    expect(await head(), 'untagging what is not there appends nothing').to.equal(off);
    expect((await ok(t.client.delete(`/api/contacts/${k}/tags/${vip.id}`, { key: agent }))).tags).to.deep.equal([]);

    const mine = (await feed()).filter((e) => e.aggregate_id === c || e.aggregate_id === k);
    expect(mine.map((e) => [e.type, e.payload.tag_id])).to.deep.equal([
      ['conversation.tagged', vip.id],
      ['conversation.tagged', urgent.id],
      ['contact.tagged', vip.id],
      ['conversation.untagged', urgent.id],
      ['contact.untagged', vip.id],
    ]);
    expect(mine[0]!.payload).to.deep.equal({ conversation_id: c, tag_id: vip.id, name: 'VIP' });
    await eventually(
      () => receiver.bodies().filter((b) => b.aggregate_id === c || b.aggregate_id === k).length,
      (n) => n >= 5,
    );
    expect(
      receiver
        .bodies()
        .filter((b) => b.aggregate_id === c)
        .sort((x, y) => x.seq - y.seq)
        .map((b) => b.type),
    ).to.deep.equal(['conversation.tagged', 'conversation.tagged', 'conversation.untagged']);
  });

  it('deleting a tag takes it off every conversation and contact through one tag.deleted naming them', async () => {
    const doomed = await tag('Doomed');
    const kept = await tag('Kept');
    const [c1, c2, c3] = [await conversation(), await conversation(), await conversation()];
    const k1 = await contact();
    for (const c of [c1, c2]) await ok(t.client.post(`/api/conversations/${c}/tags`, { tag_id: doomed.id }, { key: agent }));
    await ok(t.client.post(`/api/conversations/${c2}/tags`, { tag_id: kept.id }, { key: agent }));
    await ok(t.client.post(`/api/conversations/${c3}/parts`, { message_type: 'close' }, { key: agent }), 201);
    await ok(t.client.post(`/api/conversations/${c3}/tags`, { tag_id: doomed.id }, { key: agent }));
    await ok(t.client.post(`/api/contacts/${k1}/tags`, { tag_id: doomed.id }, { key: agent }));

    const before = await head();
    await ok(t.client.delete(`/api/tags/${doomed.id}`, { key: admin }));
    expect(await head(), 'one event').to.equal(before + 1);
    expect((await getConversation(c1)).tags).to.deep.equal([]);
    expect((await getConversation(c2)).tags).to.deep.equal([{ id: kept.id, name: 'Kept' }]);
    expect((await getConversation(c3)).tags, 'closed conversations too').to.deep.equal([]);
    expect((await getContact(k1)).tags).to.deep.equal([]);
    const deleted = (await feed(['tag.deleted'])).find((e) => e.aggregate_id === doomed.id)!;
    expect(deleted.payload).to.deep.equal({ id: doomed.id, name: 'Doomed', conversation_ids: [c1, c2, c3].sort(), contact_ids: [k1] });
    const retag = await t.client.post(`/api/conversations/${c1}/tags`, { tag_id: doomed.id }, { key: agent });
    expect(retag.status, 'a deleted tag cannot be put on again').to.equal(404);
  });

  it('refuses what is not ours, not allowed or not valid, and changes nothing', async () => {
    const other = await newWorkspace(t, 'Other');
    const theirKey = (await mintKey(t, other, ['settings:write', 'conversations:read', 'conversations:write', 'contacts:write'])).secret;
    const theirs = await tag('Theirs', theirKey);
    const mineTag = await tag('Mine');
    const c = await conversation();
    const k = await contact();
    const reader = (await mintKey(t, owner, ['conversations:read', 'contacts:read'])).secret;
    const contactsReader = (await mintKey(t, owner, ['contacts:read'])).secret;
    const before = await head();

    // tenancy: another workspace's tag, conversation or contact is a 404
    expect((await t.client.get(`/api/tags/${theirs.id}`, { key: admin })).status).to.equal(404);
    expect((await t.client.put(`/api/tags/${theirs.id}`, { name: 'x' }, { key: admin })).status).to.equal(404);
    expect((await t.client.delete(`/api/tags/${theirs.id}`, { key: admin })).status).to.equal(404);
    const foreignTag = await t.client.post(`/api/conversations/${c}/tags`, { tag_id: theirs.id }, { key: agent });
    expect(foreignTag.status).to.equal(404);
    expect(foreignTag.body.errors[0].message).to.match(/tag/i);
    expect((await t.client.post(`/api/conversations/${c}/tags`, { tag_id: mineTag.id }, { key: theirKey })).status).to.equal(404);
    expect((await t.client.post(`/api/contacts/${k}/tags`, { tag_id: mineTag.id }, { key: theirKey })).status).to.equal(404);
    expect((await t.client.get('/api/tags', { key: theirKey })).body.data.map((x: { name: string }) => x.name)).to.deep.equal(['Theirs']);

    // scopes: the catalog needs settings:write; tagging conversations:write / contacts:write
    const noSettings = await t.client.post('/api/tags', { name: 'Nope' }, { key: agent });
    expect(noSettings.status).to.equal(403);
    expect((await t.client.put(`/api/tags/${mineTag.id}`, { name: 'Nope' }, { key: agent })).status).to.equal(403);
    expect((await t.client.delete(`/api/tags/${mineTag.id}`, { key: agent })).status).to.equal(403);
    expect((await t.client.post(`/api/conversations/${c}/tags`, { tag_id: mineTag.id }, { key: reader })).status).to.equal(403);
    expect((await t.client.delete(`/api/conversations/${c}/tags/${mineTag.id}`, { key: reader })).status).to.equal(403);
    expect((await t.client.post(`/api/contacts/${k}/tags`, { tag_id: mineTag.id }, { key: reader })).status).to.equal(403);
    expect((await t.client.get('/api/tags', { key: contactsReader })).status).to.equal(403);

    // validation: coded 400s naming the field
    for (const [path, body, field] of [
      ['/api/tags', { name: '' }, 'name'],
      ['/api/tags', { name: '   ' }, 'name'],
      ['/api/tags', { name: 'x'.repeat(256) }, 'name'],
      ['/api/tags', { name: 'ok', extra: 1 }, 'extra'],
      ['/api/tags', { name: 'nul\u0000byte' }, 'name'],
      [`/api/conversations/${c}/tags`, { tag_id: 'not-a-uuid' }, 'tag_id'],
      [`/api/conversations/${c}/tags`, {}, 'tag_id'],
      [`/api/contacts/${k}/tags`, { tag_id: 42 }, 'tag_id'],
    ] as const) {
      const r = await t.client.post(path, body, { key: admin });
      expect(r.status, `${path} ${JSON.stringify(body)}: ${r.text}`).to.equal(400);
      expect(r.body.errors[0].field, r.text).to.equal(field);
    }
    expect((await t.client.post(`/api/conversations/00000000-0000-4000-8000-000000000000/tags`, { tag_id: mineTag.id }, { key: agent })).status).to.equal(404);
    expect((await t.client.delete(`/api/conversations/${c}/tags/not-a-uuid`, { key: agent })).status).to.equal(404);
    expect(await head(), 'nothing written').to.equal(before);

    // an erased contact cannot be tagged
    await ok(t.client.delete(`/api/contacts/${k}`, { key: admin }));
    const erased = await t.client.post(`/api/contacts/${k}/tags`, { tag_id: mineTag.id }, { key: agent });
    expect(erased.status).to.equal(410);
    expect(erased.body.errors[0].code).to.equal('contact_erased');
  });

  it('20 clients tagging and untagging one conversation at once end in the state the last event of each tag says', async () => {
    const tags = [await tag('Race A'), await tag('Race B'), await tag('Race C')];
    const c = await conversation();
    const agents = await Promise.all(Array.from({ length: 20 }, () => mintKey(t, owner, ['conversations:write'])));
    // Each client flips tags in its own pseudo-random order: 20 x 6 requests in flight together.
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const plans = agents.map((a) => Array.from({ length: 6 }, () => ({ key: a.secret, tag: tags[Math.floor(rand() * 3)]!.id, add: rand() < 0.5 })));
    const results = await Promise.all(
      plans.map(async (plan) => {
        const statuses: number[] = [];
        for (const step of plan) {
          const r = step.add
            ? await t.client.post(`/api/conversations/${c}/tags`, { tag_id: step.tag }, { key: step.key })
            : await t.client.delete(`/api/conversations/${c}/tags/${step.tag}`, { key: step.key });
          statuses.push(r.status);
        }
        return statuses;
      }),
    );
    expect(
      results.flat().every((s) => s === 200),
      JSON.stringify(results),
    ).to.equal(true);

    const events = (await feed(['conversation.tagged', 'conversation.untagged'])).filter((e) => e.aggregate_id === c);
    expect(events.length, 'some flips changed something').to.be.greaterThan(0);
    // consecutive events of one tag alternate: a delta never repeats what the state already says
    for (const x of tags) {
      const kinds = events.filter((e) => e.payload.tag_id === x.id).map((e) => e.type);
      for (let i = 1; i < kinds.length; i++) expect(kinds[i], `${x.name} events alternate`).to.not.equal(kinds[i - 1]);
    }
    const expected = tags
      .filter((x) => events.filter((e) => e.payload.tag_id === x.id).at(-1)?.type === 'conversation.tagged')
      .map((x) => ({ id: x.id, name: x.name }));
    expect((await getConversation(c)).tags).to.deep.equal(expected);
  });
});
