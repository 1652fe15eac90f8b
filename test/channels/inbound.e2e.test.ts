import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { createSealer } from '../../src/platform/crypto/seal.js';
import { ChannelSecrets } from '../../src/capabilities/channels/channel-secrets.js';
import { CHANNELS_SECRET, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel, inboundBody, postInbound, sign } from '../support/channels.js';

describe('signed inbound channel posts', function () {
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let ch: { id: string; secret: string };
  let key: string;
  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('inbound', { clock });
    owner = await newWorkspace(t);
    ch = await createChannel(t, owner);
    key = (await mintKey(t, owner, ['conversations:read', 'events:read'])).secret;
  });
  after(async () => t.close());

  it('opens a conversation whose first part is visible through the API, with consecutive seqs', async () => {
    const head = await t.service.deps.store.head(owner.workspaceId);
    const body = inboundBody({ contact: { external_id: 'tg:42', name: 'Ada', email: 'ada.l@example.com' } });
    const r = await postInbound(t, ch.id, ch.secret, body);
    expect(r.status, r.text).to.equal(201);
    expect(r.body).to.include({ type: 'inbound_receipt', status: 'conversation_created' });
    const conv = await t.client.get(`/api/conversations/${r.body.conversation_id}`, { key });
    expect(conv.status).to.equal(200);
    expect(conv.body).to.include({ type: 'conversation', state: 'open', channel_id: ch.id, external_id: body.external_id, contact_id: r.body.contact_id });
    expect(conv.body.parts).to.have.length(1);
    expect(conv.body.parts[0]).to.include({ type: 'conversation_part', id: r.body.part_id, part_type: 'message', body: body.content });
    expect(conv.body.parts[0].author).to.deep.equal({ type: 'contact', id: r.body.contact_id });

    const events = await t.service.deps.store.readTenant(owner.workspaceId, head, 100);
    expect(events.map((e) => e.type)).to.deep.equal(['contact.created', 'conversation.created', 'conversation_part.created']);
    expect(events.map((e) => e.seq)).to.deep.equal([head + 1, head + 2, head + 3]);
    const part = events[2]!;
    expect(part).to.include({ aggregate_type: 'conversation', aggregate_id: r.body.conversation_id });
    expect(part.payload).to.include({ part_id: r.body.part_id, part_type: 'message' });
  });

  it('files a repeated external_id as nothing, with 202', async () => {
    const body = inboundBody();
    expect((await postInbound(t, ch.id, ch.secret, body)).status).to.equal(201);
    const head = await t.service.deps.store.head(owner.workspaceId);
    const again = await postInbound(t, ch.id, ch.secret, { ...body, content: 'resent' });
    expect(again.status).to.equal(202);
    expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(head);
  });

  it('adds a follow-up message of the same thread when it carries a new message_id, once', async () => {
    const first = inboundBody({ message_id: 'm1' });
    const r1 = await postInbound(t, ch.id, ch.secret, first);
    const r2 = await postInbound(t, ch.id, ch.secret, { ...first, message_id: 'm2', content: 'Any news?' });
    expect(r2.status).to.equal(201);
    expect(r2.body).to.include({ status: 'part_added', conversation_id: r1.body.conversation_id });
    // m2 again, sent anew (not the same bytes: those are a replay, refused with the empty 401; inbound-replay.e2e.test.ts)
    expect((await postInbound(t, ch.id, ch.secret, { ...first, message_id: 'm2', content: 'Any news?', at: '2026-01-01T10:05:00Z' })).status).to.equal(202);
    const conv = await t.client.get(`/api/conversations/${r1.body.conversation_id}`, { key });
    expect(conv.body.parts.map((p: { body: string }) => p.body)).to.deep.equal([first.content, 'Any news?']);
  });

  it('files exactly one conversation for 50 concurrent posts of one external_id', async () => {
    const body = inboundBody();
    // 50 posts of the thread, each its own bytes (the same bytes twice are a replay: inbound-replay.e2e.test.ts)
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => postInbound(t, ch.id, ch.secret, { ...body, content: `${body.content} (${i})` })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).to.have.length(1);
    expect(statuses.filter((s) => s === 202)).to.have.length(49);
    const rows = await t.testDb.db('conversations').where({ tenant_id: owner.workspaceId, external_id: body.external_id });
    expect(rows).to.have.length(1);
  });

  it('finds the contact by external_id and fills only its blank fields', async () => {
    const a = await postInbound(t, ch.id, ch.secret, inboundBody({ contact: { external_id: 'fill-1', name: 'First Name' } }));
    const b = await postInbound(t, ch.id, ch.secret, inboundBody({ contact: { external_id: 'fill-1', name: 'Other Name', email: 'fill@example.com' } }));
    expect(b.body.contact_id).to.equal(a.body.contact_id);
    const row = await t.testDb.db('contacts').where({ tenant_id: owner.workspaceId, id: a.body.contact_id }).first();
    expect(row).to.include({ name: 'First Name', email: 'fill@example.com', external_id: 'fill-1' });
  });

  it('answers a wrong content type, an unknown channel and a bad signature with the same empty 401', async () => {
    const other = await newWorkspace(t, 'Other');
    const theirs = await createChannel(t, other, { secret: 'their-secret-0123456789' });
    const body = inboundBody();
    const raw = JSON.stringify(body);
    const cases = [
      await postInbound(t, ch.id, ch.secret, body, { contentType: 'text/plain' }),
      await postInbound(t, '00000000-0000-4000-8000-000000000001', ch.secret, body),
      await postInbound(t, 'not-a-uuid', ch.secret, body),
      await postInbound(t, theirs.id, ch.secret, body),
      await postInbound(t, ch.id, ch.secret, body, { signature: sign('some-other-secret-000', raw) }),
      await postInbound(t, ch.id, ch.secret, body, { signature: '' }),
    ];
    for (const c of cases) {
      expect(c.status).to.equal(401);
      expect(c.text).to.equal('');
      expect(c.headers.get('content-length')).to.equal('0');
      expect(c.headers.get('content-type')).to.equal(null);
    }
  });

  it('refuses a body altered by one byte', async () => {
    const raw = JSON.stringify(inboundBody());
    const signature = sign(ch.secret, raw);
    const altered = raw.replace('Hello', 'Hellp');
    const r = await postInbound(t, ch.id, ch.secret, undefined, { raw: altered, signature });
    expect(r.status).to.equal(401);
    expect(r.text).to.equal('');
  });

  it('refuses a timestamp 6 minutes old with 401 stale_timestamp, and accepts 4 minutes', async () => {
    const now = Math.floor(clock.now().getTime() / 1000);
    const stale = await postInbound(t, ch.id, ch.secret, inboundBody(), { timestamp: now - 360 });
    expect(stale.status).to.equal(401);
    expect(stale.body.errors[0].code).to.equal('stale_timestamp');
    expect((await postInbound(t, ch.id, ch.secret, inboundBody(), { timestamp: now - 240 })).status).to.equal(201);
  });

  it('validates the body after the signature, field by field, and files nothing', async () => {
    const head = await t.service.deps.store.head(owner.workspaceId);
    const r = await postInbound(t, ch.id, ch.secret, { external_id: '', contact: { name: 'x' }, content: 'hi' });
    expect(r.status).to.equal(400);
    const fields = r.body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).to.deep.equal(['contact.external_id', 'external_id']);
    const badJson = await postInbound(t, ch.id, ch.secret, undefined, { raw: '{"external_id":' });
    expect(badJson.status).to.equal(400);
    expect(badJson.body.errors[0].code).to.equal('invalid_json');
    expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(head);
  });

  it('keeps a sealed channel secret from opening when its row is copied to another channel or workspace', async () => {
    const other = await newWorkspace(t, 'Copy target');
    const target = await createChannel(t, other, { secret: 'target-secret-0123456789' });
    const db = t.testDb.db;
    const source = await db('channel_secrets').where({ tenant_id: owner.workspaceId, channel_id: ch.id }).whereNull('valid_until').first();
    const sealer = createSealer({ channel: CHANNELS_SECRET });
    expect(sealer.open('channel', owner.workspaceId, ch.id, source.sealed)).to.equal(ch.secret);
    expect(() => sealer.open('channel', other.workspaceId, target.id, source.sealed)).to.throw(/does not open/);
    expect(() => sealer.open('channel', owner.workspaceId, target.id, source.sealed)).to.throw(/does not open/);
    // Copy the row over the other channel's secret: it must verify nothing there.
    await db('channel_secrets').where({ tenant_id: other.workspaceId, channel_id: target.id }).update({ sealed: source.sealed });
    expect((await new ChannelSecrets(sealer).channelWithVerifying(db, target.id, clock.now(), ''))?.secrets).to.deep.equal([]);
    expect((await postInbound(t, target.id, ch.secret, inboundBody())).status).to.equal(401);
  });
});
