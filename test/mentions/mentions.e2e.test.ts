// Mentions, through the API: a note names teammates, each gets a
// conversation.mentioned (in the feed and to webhooks, like every event) and
// finds it in GET /api/me/mentions; what cannot be a mention is refused with a
// coded 400 and writes nothing.
import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';
import { eventually } from '../support/events.js';
import { addMember, mintKey } from '../support/service.js';

describe('mentions', function () {
  this.timeout(120_000);
  const fx = capabilityFixture('mentions', {
    scopes: ['conversations:read', 'conversations:write', 'events:read'],
    webhook: { events: ['conversation.mentioned'] },
  });
  const start = async () =>
    (await fx.ok(fx.t.client.post('/api/conversations', { channel_id: fx.channel.id, body: 'Help', contact: { email: 'm@example.com' } }, fx.as()), 201))
      .id as string;
  const note = (conversationId: string, body: Record<string, unknown>) =>
    fx.t.client.post(`/api/conversations/${conversationId}/reply`, { message_type: 'note', body: 'Have a look', ...body }, fx.as());

  it("a note mentioning two teammates: one conversation.mentioned each, in the feed, to webhooks and in each one's /api/me/mentions", async () => {
    const [ana, bo] = [await addMember(fx.t, fx.owner, 'agent'), await addMember(fx.t, fx.owner, 'agent')];
    const conversationId = await start();
    const part = await fx.spec({
      when: () => note(conversationId, { mentions: [ana.memberId, bo.memberId] }),
      then: { status: 201, body: { part_type: 'note' }, events: ['conversation_part.created', 'conversation.mentioned', 'conversation.mentioned'] },
    });
    const feed = await fx.ok(fx.t.client.get('/api/events?types=conversation.mentioned', fx.as()));
    expect(feed.data.map((e: { payload: { member_id: string; part_id: string } }) => [e.payload.member_id, e.payload.part_id])).to.deep.equal([
      [ana.memberId, part.id],
      [bo.memberId, part.id],
    ]);
    const delivered = await eventually(
      () => fx.receiver.received.map((r) => JSON.parse(r.raw.toString('utf8'))).filter((b) => b.type === 'conversation.mentioned'),
      (d) => d.length >= 2,
      20_000,
    );
    expect(delivered.map((d) => d.payload.member_id).sort()).to.deep.equal([ana.memberId, bo.memberId].sort());

    // Each member's own list, by session and by the member's key; the author's list does not have it.
    const anas = await fx.ok(fx.t.client.get('/api/me/mentions', { cookie: ana.cookie, workspace: ana.workspaceId }));
    expect(anas.data).to.have.length(1);
    expect(anas.data[0]).to.deep.include({
      type: 'mention',
      conversation_id: conversationId,
      part_id: part.id,
      mentioned_by: { type: 'api_key', id: fx.keyId },
    });
    const bosKey = (await mintKey(fx.t, bo, ['conversations:read'])).secret;
    expect((await fx.ok(fx.t.client.get('/api/me/mentions', { key: bosKey }))).data.map((m: { part_id: string }) => m.part_id)).to.deep.equal([part.id]);
    expect((await fx.ok(fx.t.client.get('/api/me/mentions', fx.as()))).data).to.deep.equal([]);
  });

  it('refuses mentions that cannot be: on a comment, of someone not an active member, malformed; nothing is written', async () => {
    const conversationId = await start();
    const ana = await addMember(fx.t, fx.owner, 'agent');
    const stranger = '00000000-0000-4000-8000-000000000000';
    const cases: [Record<string, unknown>, string][] = [
      [{ message_type: 'comment', mentions: [ana.memberId] }, 'mentions_on_notes_only'],
      [{ mentions: [ana.memberId, stranger] }, 'unknown_member'],
      [{ mentions: ['not-a-uuid'] }, 'invalid_field'],
      [{ mentions: [ana.memberId, ana.memberId] }, 'invalid_field'],
      [{ mentions: Array.from({ length: 21 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`) }, 'invalid_field'],
      [{ mentions: 'everyone' }, 'invalid_field'],
    ];
    for (const [body, code] of cases) {
      const r = await fx.spec({ when: () => note(conversationId, body), then: { status: 400, events: [] } });
      expect(r.errors[0].code, JSON.stringify(body)).to.equal(code);
    }
    // A removed member is no one to mention.
    expect((await fx.t.client.delete(`/api/members/${ana.memberId}`, { cookie: fx.owner.cookie, workspace: fx.owner.workspaceId })).status).to.equal(200);
    const removed = await note(conversationId, { mentions: [ana.memberId] });
    expect(removed.status).to.equal(400);
    expect(removed.body.errors[0].code).to.equal('unknown_member');
  });
});
