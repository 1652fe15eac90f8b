// Unsend (the author retracts their own comment within the window; the bridge
// is told) and redact (any part, repeatable), with their scopes and tenancy.
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { eventually } from '../support/events.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { Receiver } from '../webhooks/receiver.js';

describe('unsend and redact', function () {
  this.timeout(120_000);
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let agent: Member;
  let receiver: Receiver;
  let ch: { id: string; secret: string };
  let conversationId: string;
  let customerPartId: string;
  let readWrite: string;
  let contactsOnly: string;
  const ownerAs = () => ({ cookie: owner.cookie, workspace: owner.workspaceId });
  const agentAs = () => ({ cookie: agent.cookie, workspace: agent.workspaceId });
  const part = (id: string, action: 'unsend' | 'redact', as: Record<string, string>) =>
    t.client.post(`/api/conversations/${conversationId}/parts/${id}/${action}`, undefined, as);
  const comment = async (as: Record<string, string>, body = 'a reply') => {
    const r = await t.client.post(`/api/conversations/${conversationId}/reply`, { message_type: 'comment', body }, as);
    expect(r.status, r.text).to.equal(201);
    return r.body.id as string;
  };

  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('unsend', { clock, env: { WEBHOOK_ALLOWLIST: '127.0.0.1', UNSEND_WINDOW_SECONDS: '600' } });
    owner = await newWorkspace(t);
    agent = await addMember(t, owner, 'admin'); // unsend and redact need conversations:delete, which agents do not hold (spec 5.3)
    receiver = await new Receiver().start();
    ch = await createChannel(t, owner);
    expect((await t.client.put(`/api/channels/${ch.id}`, { webhook_url: `${receiver.url}/bridge` }, ownerAs())).status).to.equal(200);
    const post = await postInbound(t, ch.id, ch.secret, inboundBody());
    conversationId = post.body.conversation_id;
    customerPartId = post.body.part_id;
    // minted now: minting needs a fresh session, and the tests move the clock
    readWrite = (await mintKey(t, owner, ['conversations:read', 'conversations:write'])).secret;
    contactsOnly = (await mintKey(t, owner, ['contacts:read', 'contacts:write'])).secret;
  });
  after(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('lets the author unsend their comment within the window, and tells the bridge', async () => {
    const id = await comment(agentAs(), 'sent by mistake');
    await eventually(
      () => receiver.received.filter((r) => r.raw.toString().includes('sent by mistake')).length,
      (n) => n >= 1,
    );
    clock.advance(599_000);
    const r = await part(id, 'unsend', agentAs());
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ id, body: null, redacted: true, unsent: true });
    const told = await eventually(
      () => receiver.received.map((x) => JSON.parse(x.raw.toString())).filter((e) => e.type === 'conversation_part.unsent'),
      (l) => l.length >= 1,
    );
    expect(told[0].payload).to.deep.equal({ conversation_id: conversationId, part_id: id, channel_id: ch.id, external_id: null });
    // a repeat answers the same state
    const again = await part(id, 'unsend', agentAs());
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(r.body);
  });

  it('lets a member unsend what one of their keys wrote', async () => {
    const key = (await mintKey(t, agent, ['conversations:read', 'conversations:write', 'conversations:delete'])).secret;
    const id = await comment({ key }, 'via my key');
    const r = await part(id, 'unsend', agentAs());
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ unsent: true });
  });

  it("refuses to unsend someone else's comment, a note, a customer message, or after the window", async () => {
    const mine = await comment(ownerAs());
    const notMine = await part(mine, 'unsend', agentAs());
    expect(notMine.status).to.equal(403);
    expect(notMine.body.errors[0].code).to.equal('not_author');
    const note = await t.client.post(`/api/conversations/${conversationId}/reply`, { message_type: 'note', body: 'internal' }, agentAs());
    expect((await part(note.body.id, 'unsend', agentAs())).body.errors[0].code).to.equal('part_not_unsendable');
    expect((await part(customerPartId, 'unsend', agentAs())).status).to.equal(409);
    const late = await comment(agentAs());
    clock.advance(601_000);
    const r = await part(late, 'unsend', agentAs());
    expect(r.status).to.equal(409);
    expect(r.body.errors[0].code).to.equal('unsend_window_passed');
    // refused: nothing changed
    const conv = await t.client.get(`/api/conversations/${conversationId}`, agentAs());
    expect(conv.body.parts.find((p: { id: string }) => p.id === late)).to.include({ body: 'a reply', redacted: false });
  });

  it("redacts any part, a customer's message included; a repeat answers 200 with the current state", async () => {
    const r = await part(customerPartId, 'redact', agentAs());
    expect(r.status, r.text).to.equal(200);
    expect(r.body).to.include({ id: customerPartId, body: null, redacted: true, part_type: 'message' });
    const again = await part(customerPartId, 'redact', agentAs());
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(r.body);
    const feed = await t.client.get('/api/events?types=conversation_part.redacted', ownerAs());
    expect(feed.body.data).to.have.length(1); // the repeat appended nothing
  });

  it('needs conversations:delete, and another workspace gets 404', async () => {
    const id = await comment(agentAs());
    for (const action of ['redact', 'unsend'] as const) {
      const r = await part(id, action, { key: readWrite });
      expect(r.status).to.equal(403);
    }
    const other = await newWorkspace(t, 'Other');
    for (const action of ['redact', 'unsend'] as const) {
      const r = await part(id, action, { cookie: other.cookie, workspace: other.workspaceId });
      expect(r.status).to.equal(404);
    }
    const wrongConversation = await t.client.post(`/api/conversations/${customerPartId}/parts/${id}/redact`, undefined, agentAs());
    expect(wrongConversation.status).to.equal(404);
    const conv = await t.client.get(`/api/conversations/${conversationId}`, agentAs());
    expect(conv.body.parts.find((p: { id: string }) => p.id === id)).to.include({ redacted: false });
  });

  it('erasing a contact needs contacts:delete; another workspace gets 404', async () => {
    const post = await postInbound(t, ch.id, ch.secret, inboundBody({ contact: { external_id: 'erase-me' } }));
    const contactId = post.body.contact_id;
    expect((await t.client.delete(`/api/contacts/${contactId}`, { key: contactsOnly })).status).to.equal(403);
    const other = await newWorkspace(t, 'Elsewhere');
    expect((await t.client.delete(`/api/contacts/${contactId}`, { cookie: other.cookie, workspace: other.workspaceId })).status).to.equal(404);
    const conv = await t.client.get(`/api/conversations/${post.body.conversation_id}`, ownerAs());
    expect(conv.body.contact).to.deep.equal({ type: 'contact', id: contactId });
    expect((await t.client.delete(`/api/contacts/${contactId}`, ownerAs())).status).to.equal(200);
    expect((await t.client.get(`/api/conversations/${post.body.conversation_id}`, ownerAs())).body.contact).to.equal(null);
    // nothing new is filed under an erased contact
    const start = await t.client.post('/api/conversations', { channel_id: ch.id, contact_id: contactId, body: 'hello again' }, ownerAs());
    expect(start.status, start.text).to.equal(410);
    expect(start.body.errors[0].code).to.equal('contact_erased');
  });
});
