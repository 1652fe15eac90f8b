// Merging a conversation into another, through the API: the source is closed
// and read-only, pointing at the target; the target gets a `merged` part naming
// it; a bridge's later post on the source's thread lands in the target; and
// what may not be merged is refused with coded 4xx, changing nothing.
import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';

describe('merging conversations', function () {
  this.timeout(120_000);
  const fx = capabilityFixture('merge', { scopes: ['conversations:read', 'conversations:write', 'events:read'] });
  /** A bridge's thread; one customer's unless another is named (only one contact's conversations merge). */
  const thread = async (externalId: string, content: string, customer = 'wa:one') => {
    const r = await postInbound(fx.t, fx.channel.id, fx.channel.secret, inboundBody({ external_id: externalId, content, contact: { external_id: customer } }));
    expect(r.status, r.text).to.equal(201);
    return r.body.conversation_id as string;
  };
  const merge = (id: string, into: string) => fx.t.client.post(`/api/conversations/${id}/merge`, { into }, fx.as());
  const get = (id: string) => fx.ok(fx.t.client.get(`/api/conversations/${id}`, fx.as()));

  it('closes the source and points it at the target, which gets a merged part naming it; both ids are in the events', async () => {
    const source = await thread('m-1', 'My parcel is late');
    const target = await thread('m-2', 'Also: wrong address');
    const merged = await fx.spec({
      when: () => merge(source, target),
      then: {
        status: 200,
        body: { id: source, state: 'closed', merged_into: target },
        events: ['conversation_part.created', 'conversation.merged', 'conversation_part.created'],
      },
    });
    expect(merged.merged_into).to.equal(target);
    const t = await get(target);
    expect(t.merged_into).to.equal(null);
    const last = t.parts[t.parts.length - 1];
    expect(last).to.include({ part_type: 'merged', merged_from: source, body: null });
    expect(last.author).to.deep.equal({ type: 'api_key', id: fx.keyId });
    // The source's own parts stay its own.
    expect((await get(source)).parts.map((p: { part_type: string }) => p.part_type)).to.deep.equal(['message', 'close']);
  });

  it("files a bridge's later message on the source's thread in the target, and refuses writes to the source (409 conversation_merged)", async () => {
    const source = await thread('m-3', 'First');
    const target = await thread('m-4', 'Second');
    const before = inboundBody({ external_id: 'm-3', message_id: 'msg-before', content: 'Before', contact: { external_id: 'wa:one' } });
    expect((await postInbound(fx.t, fx.channel.id, fx.channel.secret, before)).status).to.equal(201);
    await fx.ok(merge(source, target));
    // The bridge's retry of a message filed before the merge is known where it was filed: nothing new.
    const retried = await postInbound(fx.t, fx.channel.id, fx.channel.secret, before);
    expect(retried.status, retried.text).to.equal(202);
    const later = await postInbound(
      fx.t,
      fx.channel.id,
      fx.channel.secret,
      inboundBody({ external_id: 'm-3', message_id: 'msg-later', content: 'Any news?', contact: { external_id: 'wa:one' } }),
    );
    expect(later.status, later.text).to.equal(201);
    expect(later.body.conversation_id).to.equal(target);
    const t = await get(target);
    expect(t.parts.map((p: { body: string | null }) => p.body)).to.include('Any news?');
    expect((await get(source)).parts).to.have.length(3);
    for (const [what, r] of [
      ['reply', await fx.t.client.post(`/api/conversations/${source}/reply`, { message_type: 'comment', body: 'hello?' }, fx.as())],
      ['open', await fx.t.client.post(`/api/conversations/${source}/parts`, { message_type: 'open' }, fx.as())],
      ['merge again', await merge(source, target)],
    ] as const) {
      expect([r.status, r.body.errors[0].code], what).to.deep.equal([409, 'conversation_merged']);
    }
    // A conversation merged into the source's target follows it: merging the target on moves the source's thread too.
    const third = await thread('m-5', 'Third');
    await fx.ok(merge(target, third));
    const latest = await postInbound(
      fx.t,
      fx.channel.id,
      fx.channel.secret,
      inboundBody({ external_id: 'm-3', message_id: 'msg-latest', content: 'Still waiting', contact: { external_id: 'wa:one' } }),
    );
    expect(latest.body.conversation_id).to.equal(third);
  });

  it('refuses a merge into itself, into an unknown or merged conversation, or across channels, writing nothing', async () => {
    const a = await thread('m-6', 'A');
    const b = await thread('m-7', 'B');
    const c = await thread('m-8', 'C');
    await fx.ok(merge(b, c));
    const someoneElse = await thread('m-10', 'D', 'wa:two');
    const other = await createChannel(fx.t, fx.owner, { name: 'Other bridge' });
    const elsewhere = (
      await postInbound(fx.t, other.id, other.secret, inboundBody({ external_id: 'm-9', content: 'Elsewhere', contact: { external_id: 'wa:one' } }))
    ).body.conversation_id as string;
    const before = (await fx.ok(fx.t.client.get('/api/events?types=conversation.merged&per_page=100', fx.as()))).data.length;
    for (const [into, status, code] of [
      [a, 400, 'invalid_field'],
      ['00000000-0000-4000-8000-000000000000', 400, 'unknown_conversation'],
      [b, 422, 'merge_target_merged'],
      [elsewhere, 422, 'merge_across_channels'],
      [someoneElse, 422, 'merge_across_contacts'],
    ] as const) {
      const r = await merge(a, into);
      expect(r.body.errors, `${code}: ${r.status} ${r.text}`).to.be.an('array');
      expect([r.status, r.body.errors[0].code], code).to.deep.equal([status, code]);
    }
    expect((await fx.t.client.post(`/api/conversations/${a}/merge`, { into: 'nope' }, fx.as())).status).to.equal(400);
    expect((await fx.t.client.post('/api/conversations/00000000-0000-4000-8000-000000000000/merge', { into: a }, fx.as())).status).to.equal(404);
    expect((await fx.ok(fx.t.client.get('/api/events?types=conversation.merged&per_page=100', fx.as()))).data.length).to.equal(before);
    expect((await get(a)).state).to.equal('open');
  });
});
