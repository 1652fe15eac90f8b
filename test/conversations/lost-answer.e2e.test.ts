// A write whose work committed but whose answer was never stored: the process
// died between the commit and recording the answer (the key's lease then runs
// out), or the request failed with a 5xx after the commit (which releases the
// key). The client retries with the same Idempotency-Key and must get the
// answer to what actually happened: the same ids, nothing appended twice, and
// no refusal computed from the state its own first run produced. Found by the
// scale-out run (npm run scale-out): a retried creation answered 201 with a
// null body, a retried reply 500 on every attempt.
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { LEASE_MS } from '../../src/api/idempotency/idempotency.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';

describe('Idempotency-Key: retrying a write whose answer was lost', function () {
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let key: string;
  let keyId: string;
  let channelId: string;

  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('lost_answer', { clock });
    owner = await newWorkspace(t);
    channelId = (await createChannel(t, owner)).id;
    const k = await mintKey(t, owner, ['conversations:read', 'conversations:write', 'settings:write']);
    key = k.secret;
    keyId = k.id;
  });
  after(async () => t.close());

  const db = () => t.testDb.db;
  // The workspace's events in the log, whichever store the service keeps it in (TEST_EVENT_STORE); seqs are gapless.
  const eventCount = () => t.service.deps.store.head(owner.workspaceId);
  const post = (path: string, body: unknown, idem: string, o: { cookie?: string } = {}) =>
    t.client.post(
      path,
      body,
      o.cookie ? { cookie: o.cookie, workspace: owner.workspaceId, headers: { 'idempotency-key': idem } } : { key, headers: { 'idempotency-key': idem } },
    );

  /** The crash: the key stays reserved (in flight) and its lease runs out. */
  const crashAfterCommit = async (idem: string) => {
    const n = await db()('idempotency_keys')
      .where({ tenant_id: owner.workspaceId, key: idem })
      .update({ status: 'in_flight', response_status: null, response_body: null, completed_at: null });
    expect(n).to.equal(1);
    clock.advance(LEASE_MS + 1000);
  };
  /** A 5xx after the commit: the key is released (spec 3.2), which the service records as such. */
  const failedAfterCommit = async (idem: string) => {
    expect(
      await db()('idempotency_keys')
        .where({ tenant_id: owner.workspaceId, key: idem })
        .update({ status: 'released', response_status: null, response_body: null, completed_at: null }),
    ).to.equal(1);
  };

  for (const [label, tag, lose] of [
    ['after a crash (lease ran out)', 'crash', crashAfterCommit],
    ['after a 5xx (key released)', 'released', failedAfterCommit],
  ] as const) {
    it(`creating a conversation (new contact) answers the same conversation ${label}`, async () => {
      const idem = `create-${tag}`;
      const body = { channel_id: channelId, body: `Opening ${label}`, contact: { external_id: `lost-${tag}`, name: 'Lost Answer' } };
      const first = await post('/api/conversations', body, idem);
      expect(first.status, first.text).to.equal(201);
      const events = await eventCount();
      await lose(idem);
      const retry = await post('/api/conversations', body, idem);
      expect(retry.status, retry.text).to.equal(201);
      expect(retry.body.id).to.equal(first.body.id);
      expect(retry.body.parts.map((p: { id: string }) => p.id)).to.deep.equal(first.body.parts.map((p: { id: string }) => p.id));
      expect(await eventCount(), 'events appended by the retry').to.equal(events);
      // and from then on the answer is stored and replayed
      const again = await post('/api/conversations', body, idem);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.id).to.equal(first.body.id);
    });

    it(`replying answers the same part ${label}`, async () => {
      const conv = await post(
        '/api/conversations',
        { channel_id: channelId, body: 'Hello', contact: { external_id: `reply-${tag}` } },
        `conv-for-reply-${tag}`,
      );
      expect(conv.status, conv.text).to.equal(201);
      const idem = `reply-${tag}`;
      const first = await post(`/api/conversations/${conv.body.id}/reply`, { body: 'It ships today.', message_type: 'comment' }, idem);
      expect(first.status, first.text).to.equal(201);
      const events = await eventCount();
      await lose(idem);
      const retry = await post(`/api/conversations/${conv.body.id}/reply`, { body: 'It ships today.', message_type: 'comment' }, idem);
      expect(retry.status, retry.text).to.equal(201);
      expect(retry.body.id).to.equal(first.body.id);
      expect(await eventCount()).to.equal(events);
    });

    it(`closing answers the close part, not conversation_already_closed, ${label}`, async () => {
      const conv = await post(
        '/api/conversations',
        { channel_id: channelId, body: 'Hello', contact: { external_id: `close-${tag}` } },
        `conv-for-close-${tag}`,
      );
      const idem = `close-${tag}`;
      const first = await post(`/api/conversations/${conv.body.id}/parts`, { message_type: 'close' }, idem);
      expect(first.status, first.text).to.equal(201);
      await lose(idem);
      const retry = await post(`/api/conversations/${conv.body.id}/parts`, { message_type: 'close' }, idem);
      expect(retry.status, retry.text).to.equal(201);
      expect(retry.body.id).to.equal(first.body.id);
    });
  }

  it('a lost answer that showed a new secret once answers the same key with a fresh secret (the lost one was never seen)', async () => {
    const idem = 'mint-lost';
    const first = await post('/api/keys', { name: 'lost', scopes: ['conversations:read'] }, idem, { cookie: owner.cookie });
    expect(first.status, first.text).to.equal(201);
    // In a real loss this answer never left the service (it is sent only after it is stored); here the test drops it.
    await failedAfterCommit(idem);
    const retry = await post('/api/keys', { name: 'lost', scopes: ['conversations:read'] }, idem, { cookie: owner.cookie });
    expect(retry.status, retry.text).to.equal(201);
    expect(retry.body.id).to.equal(first.body.id);
    // the key the first run made exists once; the secret the retry answered is the one that works
    const keys = await db()('api_keys').where({ tenant_id: owner.workspaceId, name: 'lost' }).pluck('id');
    expect(keys).to.deep.equal([first.body.id]);
    expect((await t.client.get('/api/me', { key: retry.body.secret })).status).to.equal(200);
    expect((await t.client.get('/api/me', { key: first.body.secret })).status).to.equal(401);
    expect(keyId).to.be.a('string');
  });
});
