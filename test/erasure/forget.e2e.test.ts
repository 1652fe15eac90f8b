// Personal data the log can forget. Unique marker strings go in through every
// path that copies them (inbound posts, replies, webhooks and the bridge,
// idempotent answers, the change feed); after an erasure, a redaction or a
// member's erasure, a dump of every table of the database, the event log
// included, must not hold them in plaintext anywhere, while what was not
// erased still reads back (so the search itself is shown to find markers).
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { dumpDatabase, findMarkers } from '../support/database-dump.js';
import { eventually } from '../support/events.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { Receiver } from '../webhooks/receiver.js';

const marker = (what: string) => `${what}${randomBytes(6).toString('hex')}`;

describe('forgetting personal data (erase, redact, member erase)', function () {
  this.timeout(240_000);
  let t: TestService;
  let owner: Member;
  let key: string;
  let receiver: Receiver;
  let ch: { id: string; secret: string };
  let endpointId: string;
  const as = () => ({ key });

  before(async () => {
    t = await startTestService('forget', { env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } });
    owner = await newWorkspace(t);
    key = (
      await mintKey(t, owner, [
        'conversations:read',
        'conversations:write',
        'conversations:delete',
        'contacts:read',
        'contacts:write',
        'contacts:delete',
        'contacts:export',
        'events:read',
        'settings:read',
        'settings:write',
      ])
    ).secret;
    receiver = await new Receiver().start();
    const ep = await t.client.post('/api/webhooks', { url: `${receiver.url}/hooks`, event_names: [] }, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(ep.status, ep.text).to.equal(201);
    endpointId = ep.body.id;
    ch = await createChannel(t, owner);
    const put = await t.client.put(`/api/channels/${ch.id}`, { webhook_url: `${receiver.url}/bridge` }, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(put.status, put.text).to.equal(200);
  });
  after(async () => {
    await receiver?.close();
    await t?.close();
  });

  const received = (path: string, needle: string) => receiver.received.filter((r) => r.path.endsWith(path) && r.raw.toString('utf8').includes(needle));

  it("erases a contact: every copy of their data and their conversations' content goes, ids and counts stay", async () => {
    const m = {
      name: marker('Name'),
      email: `${marker('mail')}@marker.example`,
      phone: `+1${Date.now()}`.slice(0, 13),
      external_id: marker('ext'),
      attribute: marker('attr'),
      attribute2: marker('attr'),
      message: marker('inbound'),
      reply: marker('reply'),
      subject: marker('subject'),
      started: marker('started'),
    };
    // The contact through the API (an idempotent create: its stored answer carries the data), then the bridge's post finds them.
    const create = await t.client.post(
      '/api/contacts',
      { external_id: m.external_id, name: m.name, email: m.email, phone: m.phone, custom_attributes: { favourite: m.attribute } },
      { ...as(), headers: { 'idempotency-key': 'contact-1' } },
    );
    expect(create.status, create.text).to.equal(201);
    const update = await t.client.put(
      `/api/contacts/${create.body.id}`,
      { custom_attributes: { plan_note: m.attribute2 } },
      { ...as(), headers: { 'idempotency-key': 'contact-2' } },
    );
    expect(update.status, update.text).to.equal(200);
    const post = await postInbound(
      t,
      ch.id,
      ch.secret,
      inboundBody({ contact: { external_id: m.external_id, name: m.name, email: m.email, phone: m.phone }, content: m.message }),
    );
    expect(post.status, post.text).to.equal(201);
    const { contact_id: contactId, conversation_id: conversationId } = post.body;
    expect(contactId).to.equal(create.body.id);

    const reply = await t.client.post(
      `/api/conversations/${conversationId}/reply`,
      { message_type: 'comment', body: m.reply },
      { ...as(), headers: { 'idempotency-key': 'reply-1' } },
    );
    expect(reply.status, reply.text).to.equal(201);
    const started = await t.client.post(
      '/api/conversations',
      { channel_id: ch.id, contact_id: contactId, subject: m.subject, body: m.started },
      { ...as(), headers: { 'idempotency-key': 'start-1' } },
    );
    expect(started.status, started.text).to.equal(201);

    // While the contact exists, receivers and the feed get the opened values: the reply at both, and the contact's
    // creation at the endpoint (deliveries of one endpoint may land in any order, so each is waited for).
    const reached = await eventually(
      () => ({ hooks: received('/hooks', m.reply).length, bridge: received('/bridge', m.reply).length, created: received('/hooks', m.name).length }),
      (n) => n.hooks > 0 && n.bridge > 0 && n.created > 0,
      60_000,
    );
    expect(reached.created, 'contact.created reached the endpoint opened').to.be.greaterThan(0);
    // A subject-access export, built by the background worker: its stored file holds them sealed only.
    const exp = await t.client.post(`/api/contacts/${contactId}/exports`, undefined, as());
    expect(exp.status, exp.text).to.equal(202);
    await eventually(
      () => t.client.get(`/api/exports/${exp.body.id}`, as()),
      (r) => r.body.status === 'completed',
      10_000,
    );
    expect((await t.client.get(`/api/exports/${exp.body.id}/download`, as())).text)
      .to.include(m.reply)
      .and.include(m.name);
    const feedBefore = await t.client.get('/api/events?per_page=100', as());
    expect(JSON.stringify(feedBefore.body)).to.include(m.message).and.include(m.email);
    const before = await dumpDatabase(t.testDb.db);
    // The log, feed table, delivery records and stored answers hold them sealed only; the read models in plaintext.
    expect(
      findMarkers(before, m).every((f) => /in (contacts|conversations|conversation_parts)$/.test(f)),
      findMarkers(before, m).join(', '),
    ).to.equal(true);

    const erase = await t.client.delete(`/api/contacts/${contactId}`, as());
    expect(erase.status, erase.text).to.equal(200);
    expect(erase.body).to.include({ type: 'contact_erasure', id: contactId });
    const again = await t.client.delete(`/api/contacts/${contactId}`, as());
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(erase.body);

    const dump = await dumpDatabase(t.testDb.db);
    expect(findMarkers(dump, m), 'markers left after erasure').to.deep.equal([]);
    expect((await t.client.get(`/api/exports/${exp.body.id}`, as())).status, "the contact's exports are gone").to.equal(404);

    // Conversation shells stay, with their ids, states and counts; contact and content are gone.
    for (const id of [conversationId, started.body.id]) {
      const conv = await t.client.get(`/api/conversations/${id}`, as());
      expect(conv.status).to.equal(200);
      expect(conv.body).to.include({ contact: null, contact_id: contactId, subject: null, state: 'open' });
      expect(conv.body.parts.length).to.be.greaterThan(0);
      for (const p of conv.body.parts) expect(p).to.include({ body: null, redacted: true });
    }
    // A replay of a stored answer repeats it, with what was erased as null.
    const createdAgain = await t.client.post(
      '/api/contacts',
      { external_id: m.external_id, name: m.name, email: m.email, phone: m.phone, custom_attributes: { favourite: m.attribute } },
      { ...as(), headers: { 'idempotency-key': 'contact-1' } },
    );
    expect(createdAgain.status).to.equal(201);
    expect(createdAgain.body).to.deep.include({ id: contactId, name: null, email: null, phone: null, external_id: null, custom_attributes: {} });
    const replay = await t.client.post(
      `/api/conversations/${conversationId}/reply`,
      { message_type: 'comment', body: m.reply },
      { ...as(), headers: { 'idempotency-key': 'reply-1' } },
    );
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body).to.include({ id: reply.body.id, body: null });

    // The feed: contact.erased with ids only; the earlier events read their personal fields as null.
    const feed = (await t.client.get('/api/events?per_page=100', as())).body.data as {
      seq: number;
      type: string;
      aggregate_id: string;
      payload: Record<string, unknown>;
    }[];
    expect(JSON.stringify(feed)).not.to.include(m.message);
    const erased = feed.filter((e) => e.type === 'contact.erased');
    expect(erased).to.have.length(1);
    expect(Object.keys(erased[0]!.payload).sort()).to.deep.equal(['contact_id', 'conversation_ids', 'part_ids', 'thread_keys']);
    expect(erased[0]!.payload.conversation_ids).to.have.members([conversationId, started.body.id]);
    const created = feed.find((e) => e.type === 'contact.created' && e.aggregate_id === contactId)!;
    expect(created.payload).to.deep.include({ contact_id: contactId, name: null, email: null, phone: null, external_id: null });
    expect(feed.map((e) => e.seq)).to.deep.equal(feed.map((_, i) => i + 1)); // still gapless

    // A delivery sent again after the erasure carries null where the data was.
    const deliveries = await t.client.get(`/api/webhooks/${endpointId}/deliveries?per_page=100`, { cookie: owner.cookie, workspace: owner.workspaceId });
    const replyDelivery = (deliveries.body.data as { id: string; seq: number }[]).find(
      (d) => d.seq === feed.find((e) => e.type === 'conversation_part.created' && (e.payload.part_id as string) === reply.body.id)!.seq,
    )!;
    const n = receiver.received.length;
    const retry = await t.client.post(`/api/webhooks/${endpointId}/deliveries/${replyDelivery.id}/retry`, undefined, {
      cookie: owner.cookie,
      workspace: owner.workspaceId,
    });
    expect(retry.status, retry.text).to.equal(201);
    const [resent] = (await receiver.waitFor(n + 1)).slice(n);
    const envelope = JSON.parse(resent!.raw.toString('utf8'));
    expect(envelope.payload).to.include({ part_id: reply.body.id, body: null });

    const gone = await t.client.get(`/api/contacts/${contactId}`, as());
    expect(gone.status, gone.text).to.equal(410);
    expect(gone.body.errors[0].code).to.equal('contact_erased');
  });

  it('redacts one part: its content goes everywhere, the rest of the conversation stays', async () => {
    const m = { kept: marker('kept'), secret: marker('redactme') };
    const post = await postInbound(t, ch.id, ch.secret, inboundBody({ contact: { external_id: marker('x'), name: 'Kept Person' }, content: m.kept }));
    const conversationId = post.body.conversation_id;
    const reply = await t.client.post(
      `/api/conversations/${conversationId}/reply`,
      { message_type: 'comment', body: m.secret, attachments: [{ url: `https://files.example/${m.secret}.png` }] },
      { ...as(), headers: { 'idempotency-key': 'reply-redact' } },
    );
    expect(reply.status, reply.text).to.equal(201);
    await eventually(
      () => received('/bridge', m.secret).length,
      (k) => k >= 1,
      10_000,
    );

    const redact = await t.client.post(`/api/conversations/${conversationId}/parts/${reply.body.id}/redact`, undefined, as());
    expect(redact.status, redact.text).to.equal(200);
    expect(redact.body).to.include({ id: reply.body.id, body: null, redacted: true });
    expect(redact.body.attachments).to.deep.equal([]);
    const again = await t.client.post(`/api/conversations/${conversationId}/parts/${reply.body.id}/redact`, undefined, as());
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(redact.body);

    const dump = await dumpDatabase(t.testDb.db);
    expect(findMarkers(dump, { secret: m.secret })).to.deep.equal([]);
    expect(findMarkers(dump, { kept: m.kept }), 'the unredacted message is still there (the search finds markers)').to.deep.equal([
      'kept in conversation_parts',
    ]);
    const conv = await t.client.get(`/api/conversations/${conversationId}`, as());
    expect(conv.body.parts.map((p: { body: string | null }) => p.body)).to.deep.equal([m.kept, null]);
    const parts = (await t.client.get('/api/events?types=conversation_part.created&per_page=100', as())).body.data as { payload: Record<string, unknown> }[];
    expect(parts.find((e) => e.payload.part_id === reply.body.id)!.payload).to.include({ body: null, attachments: null });
    const replay = await t.client.post(
      `/api/conversations/${conversationId}/reply`,
      { message_type: 'comment', body: m.secret, attachments: [{ url: `https://files.example/${m.secret}.png` }] },
      { ...as(), headers: { 'idempotency-key': 'reply-redact' } },
    );
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body).to.deep.include({ id: reply.body.id, body: null, attachments: [] });
    const feed = (await t.client.get('/api/events?types=conversation_part.redacted', as())).body.data as { payload: Record<string, unknown> }[];
    expect(feed.at(-1)!.payload).to.deep.equal({
      conversation_id: conversationId,
      part_id: reply.body.id,
      redacted_by: { type: 'api_key', id: feed.at(-1)!.payload.redacted_by && (feed.at(-1)!.payload.redacted_by as { id: string }).id },
    });
  });

  it('forgets a removed member: name and e-mail go from every table, their sign-in account with them', async () => {
    const m = { name: marker('Member'), email: `${marker('member')}@marker.example` };
    const as = { cookie: owner.cookie, workspace: owner.workspaceId };
    const invite = await t.client.post('/api/members/invites', { email: m.email, role: 'agent' }, { ...as, headers: { 'idempotency-key': 'invite-member' } });
    expect(invite.status, invite.text).to.equal(201);
    const accepted = await t.client.post('/api/invites/accept', { token: invite.body.token, name: m.name, password: 'correct horse battery' });
    expect(accepted.status, accepted.text).to.equal(202);
    const session = await t.client.post('/api/session', { email: m.email, password: 'correct horse battery' });
    expect(session.status, session.text).to.equal(201);
    const memberId = session.body.workspaces.find((w: { id: string }) => w.id === owner.workspaceId).member_id;

    const early = await t.client.post(`/api/members/${memberId}/erase`, undefined, as);
    expect(early.status).to.equal(409);
    expect(early.body.errors[0].code).to.equal('member_active');
    expect((await t.client.delete(`/api/members/${memberId}`, as)).status).to.equal(200);
    const erase = await t.client.post(`/api/members/${memberId}/erase`, undefined, as);
    expect(erase.status, erase.text).to.equal(200);
    expect(erase.body).to.include({ id: memberId, name: null, email: null, status: 'removed' });
    expect((await t.client.post(`/api/members/${memberId}/erase`, undefined, as)).body).to.deep.equal(erase.body);

    expect(findMarkers(await dumpDatabase(t.testDb.db), m)).to.deep.equal([]);
    const signin = await t.client.post('/api/session', { email: m.email, password: 'correct horse battery' });
    expect(signin.status).to.equal(401);
    const joined = (await t.client.get('/api/events?types=member.joined', { key })).body.data as { payload: Record<string, unknown> }[];
    expect(joined.find((e) => e.payload.member_id === memberId)!.payload).to.include({ name: null, email: null });
    const feed = (await t.client.get('/api/events?types=member.erased', { key })).body.data as { payload: Record<string, unknown> }[];
    expect(feed).to.have.length(1);
    expect(Object.keys(feed[0]!.payload).sort()).to.deep.equal(['erased_by', 'invite_id', 'member_id']);
  });
});
