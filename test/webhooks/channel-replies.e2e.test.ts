import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { hmacHex } from '../../src/platform/crypto/hmac.js';
import { eventually } from '../support/events.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { Receiver } from './receiver.js';

describe('channel reply delivery (spec 6.2)', function () {
  let t: TestService;
  let owner: Member;
  let bridge: Receiver;
  let channel: { id: string; secret: string };
  let conversationId: string;
  const as = () => ({ cookie: owner.cookie, workspace: owner.workspaceId });
  const reply = (body: string, message_type: 'comment' | 'note', o: { key?: string } = {}) =>
    t.client.post(`/api/conversations/${conversationId}/reply`, { body, message_type }, o.key ? { key: o.key } : as());
  const channelDeliveries = () =>
    t.service.deps.db('webhook_deliveries').where({ tenant_id: owner.workspaceId, target_kind: 'channel', target_id: channel.id }).orderBy('ord');

  before(async () => {
    t = await startTestService('webhook_channels', {
      clock: new ManualClock(new Date()),
      env: { WEBHOOK_ALLOWLIST: '127.0.0.1', UPLOAD_URL_TTL_SECONDS: '60' },
    });
    owner = await newWorkspace(t);
    bridge = await new Receiver().start();
    channel = await createChannel(t, owner, { name: 'WhatsApp bridge' });
    const put = await t.client.put(`/api/channels/${channel.id}`, { webhook_url: bridge.url }, as());
    expect(put.status, put.text).to.equal(200);
    const inbound = await postInbound(t, channel.id, channel.secret, inboundBody());
    expect(inbound.status, inbound.text).to.equal(201);
    conversationId = inbound.body.conversation_id;
  });
  after(async () => {
    await t.close();
    await bridge.close();
  });

  it("posts a teammate's reply to the channel's webhook_url, signed with the channel secret; a note and the customer's own message stay home", async () => {
    const note = await reply('Internal: customer is VIP', 'note');
    expect(note.status, note.text).to.equal(201);
    const comment = await reply('Your parcel left the depot this morning.', 'comment');
    expect(comment.status, comment.text).to.equal(201);

    const [got] = await bridge.waitFor(1);
    const envelope = JSON.parse(got!.raw.toString('utf8'));
    expect(got!.headers['content-type']).to.equal('application/json');
    expect(got!.headers['x-service-signature']).to.equal(hmacHex(channel.secret, got!.raw));
    expect(envelope).to.include({
      tenant_id: owner.workspaceId,
      type: 'conversation_part.created',
      aggregate_type: 'conversation',
      aggregate_id: conversationId,
    });
    expect(envelope.payload).to.include({ part_type: 'comment', body: 'Your parcel left the depot this morning.', channel_id: channel.id });
    expect(envelope.payload.author).to.deep.equal({ type: 'member', id: owner.memberId });

    // The note was routed before the comment, in the same log order: had it been owed, its row would exist.
    const rows = await channelDeliveries();
    expect(rows.map((r) => r.seq)).to.deep.equal([envelope.seq]);
    expect(bridge.received).to.have.length(1);
    expect(got!.raw.toString('utf8')).to.not.include('VIP');
  });

  it("shows the channel's deliveries with their state and attempts at /api/channels/{id}/deliveries", async () => {
    const [row] = await channelDeliveries();
    const list = await eventually(
      () => t.client.get(`/api/channels/${channel.id}/deliveries`, as()),
      (r) => r.body?.data?.[0]?.state === 'delivered',
    );
    expect(list.body.type).to.equal('list');
    expect(list.body.data[0]).to.include({ id: row.id, seq: Number(row.seq), event_type: 'conversation_part.created', state: 'delivered', last_status: 200 });
    const one = await t.client.get(`/api/channels/${channel.id}/deliveries/${row.id}`, as());
    expect(one.body.attempt_log).to.have.length(1);
    expect(list.text).to.not.include(channel.secret);
    const other = await newWorkspace(t, 'Other');
    expect((await t.client.get(`/api/channels/${channel.id}/deliveries`, { cookie: other.cookie, workspace: other.workspaceId })).status).to.equal(404);
  });

  it('sends replies made with an API key too, and signs with the current secret after a rotation', async () => {
    const key = await mintKey(t, owner, ['conversations:write', 'conversations:read']);
    expect((await reply('Sent by our integration.', 'comment', { key: key.secret })).status).to.equal(201);
    await bridge.waitFor(2);
    expect(JSON.parse(bridge.received[1]!.raw.toString('utf8')).payload.author).to.deep.equal({ type: 'api_key', id: key.id });

    const rotated = await t.client.post(`/api/channels/${channel.id}/rotate-secret`, undefined, as());
    expect(rotated.status, rotated.text).to.equal(200);
    const fresh: string = rotated.body.webhook_secret;
    expect((await reply('After rotation.', 'comment')).status).to.equal(201);
    const [, , third] = await bridge.waitFor(3);
    expect(JSON.parse(third!.raw.toString('utf8')).payload.body).to.equal('After rotation.');
    expect(third!.headers['x-service-signature']).to.equal(hmacHex(fresh, third!.raw));
    expect(third!.headers['x-service-signature']).to.not.equal(hmacHex(channel.secret, third!.raw));
  });

  it("gives the bridge each uploaded file's download URL: it works without a key until it expires, and only for that file", async () => {
    const before = bridge.received.length;
    const bytes = Buffer.from(`%PDF-1.4\n${'label '.repeat(200)}`);
    const up = await t.client.post('/api/uploads?filename=label.pdf', undefined, { ...as(), bytes });
    expect(up.status, up.text).to.equal(201);
    const r = await t.client.post(
      `/api/conversations/${conversationId}/reply`,
      { body: 'Your label', message_type: 'comment', upload_ids: [up.body.id] },
      as(),
    );
    expect(r.status, r.text).to.equal(201);
    const got = (await bridge.waitFor(before + 1))[before]!;
    const [file] = JSON.parse(got.raw.toString('utf8')).payload.attachments;
    expect(file).to.include({ upload_id: up.body.id, name: 'label.pdf', content_type: 'application/pdf', url: `/api/uploads/${up.body.id}/content` });
    const path = new URL(file.download_url).pathname;
    const download = await t.client.get(path);
    expect(download.status).to.equal(200);
    expect(download.bytes.equals(bytes)).to.equal(true);
    // Another file's id, or a changed MAC, opens nothing.
    const other = await t.client.post('/api/uploads?filename=other.txt', undefined, { ...as(), bytes: Buffer.from('other') });
    expect((await t.client.get(path.replace(up.body.id, other.body.id))).status).to.equal(404);
    expect((await t.client.get(path.replace(/[0-9a-f]$/, (c) => (c === '0' ? '1' : '0')))).status).to.equal(404);
    // UPLOAD_URL_TTL_SECONDS (60 here) after the send, it has expired.
    (t.clock as ManualClock).advance(61_000);
    expect((await t.client.get(path)).status).to.equal(404);
  });

  it('stops posting once the webhook_url is cleared', async () => {
    const before = (await channelDeliveries()).length;
    expect((await t.client.put(`/api/channels/${channel.id}`, { webhook_url: null }, as())).status).to.equal(200);
    expect((await reply('Nobody should get this.', 'comment')).status).to.equal(201);
    // Something routed after the reply proves the dispatcher has passed it.
    const probe = await new Receiver().start();
    try {
      await t.client.post('/api/webhooks', { url: probe.url, event_names: ['member.invited'] }, as());
      await t.client.post('/api/members/invites', { email: 'probe@example.com', role: 'agent' }, as());
      await probe.waitFor(1);
    } finally {
      await probe.close();
    }
    expect(await channelDeliveries()).to.have.length(before);
    await eventually(
      () => channelDeliveries(),
      (rows) => rows.every((r) => r.state === 'delivered'),
    );
    expect(bridge.bodies().map((b) => b.payload.body)).to.not.include('Nobody should get this.');
  });
});
