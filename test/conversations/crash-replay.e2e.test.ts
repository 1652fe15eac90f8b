// A command commits, then the process loses the completion of its idempotency
// row (the write fails) before the answer leaves: a 500, which releases the key.
// The client retries with the same Idempotency-Key at once: it must
// get the answer the first attempt would have given (same status, same ids),
// with one set of events in the log and no rows orphaned beside it.
//
// The fault is real and outside the code under test: a trigger in this test's
// database refuses to mark the reservation completed.
import { expect } from 'chai';
import { createChannel } from '../support/channels.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import type { RequestOptions } from '../support/http.js';

describe('a command committed whose idempotent answer was lost', () => {
  let t: TestService;
  let owner: Member;
  let key: string;
  let channelId: string;

  before(async () => {
    t = await startTestService('crash_replay');
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'events:read', 'settings:read', 'settings:write'])).secret;
    channelId = (await createChannel(t, owner)).id;
  });
  after(() => t?.close());

  const db = () => t.testDb.db;

  async function loseCompletions(on: boolean): Promise<void> {
    if (on) {
      await db()
        .raw(`CREATE OR REPLACE FUNCTION test_lose_completion() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'completion lost (test fault)'; END $$;
        CREATE TRIGGER test_lose_completion BEFORE UPDATE ON idempotency_keys FOR EACH ROW WHEN (NEW.status = 'completed') EXECUTE FUNCTION test_lose_completion();`);
    } else {
      await db().raw('DROP TRIGGER IF EXISTS test_lose_completion ON idempotency_keys');
    }
  }

  /** First attempt dies after its commit; the retry after the lease gets the answer. */
  async function crashThenRetry(method: 'post', path: string, body: unknown, opts: RequestOptions) {
    const idem = { ...opts, headers: { ...opts.headers, 'idempotency-key': `crash-${Math.random().toString(36).slice(2)}` } };
    const headBefore = await feedHead();
    await loseCompletions(true);
    let first;
    try {
      first = await t.client.request(method, path, body, idem);
    } finally {
      await loseCompletions(false);
    }
    expect(first.status, first.text).to.equal(500);
    const committed = await feedHead();
    expect(committed, 'the first attempt committed its events').to.be.greaterThan(headBefore);
    // The 500 released the key (spec 3.2: a 5xx frees it for a retry), so the retry runs at once, with no
    // lease to wait out, and must answer for what the first attempt committed. (A process that dies instead
    // holds the key until its lease runs out: lost-answer.e2e.test.ts.)
    const retry = await t.client.request(method, path, body, idem);
    expect(await feedHead(), 'the retry appended nothing').to.equal(committed);
    const replay = await t.client.request(method, path, body, idem);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.text).to.equal(retry.text);
    const events = (await t.client.get(`/api/events?after_seq=${headBefore}&per_page=150`, { key })).body.data as {
      type: string;
      aggregate_id: string;
      payload: Record<string, any>;
    }[];
    return { retry, events };
  }

  /** The workspace's last seq in the log, whichever store the service keeps it in (TEST_EVENT_STORE). */
  const feedHead = (): Promise<number> => t.service.deps.store.head(owner.workspaceId);

  it('start conversation: the same 201 and ids as the committed events', async () => {
    const { retry, events } = await crashThenRetry(
      'post',
      '/api/conversations',
      { channel_id: channelId, body: 'crash start', contact: { email: 'crash@example.com' } },
      { key },
    );
    expect(retry.status, retry.text).to.equal(201);
    const created = events.filter((e) => e.type === 'conversation.created');
    expect(created).to.have.length(1);
    expect(retry.body.id).to.equal(created[0]!.aggregate_id);
    expect(retry.body.parts.map((p: { id: string }) => p.id)).to.deep.equal(
      events.filter((e) => e.type === 'conversation_part.created').map((e) => e.payload.part_id),
    );
    expect(await db()('conversations').where({ tenant_id: owner.workspaceId, id: retry.body.id })).to.have.length(1);
  });

  it('a key released by a 5xx after the commit: the retry answers for the committed events, appending nothing', async () => {
    const conv = await t.client.post('/api/conversations', { channel_id: channelId, body: 'hello', contact: { email: 'rel@example.com' } }, { key });
    const idem = { key, headers: { 'idempotency-key': 'released-close-1' } };
    const headBefore = await feedHead();
    await loseCompletions(true);
    try {
      expect((await t.client.post(`/api/conversations/${conv.body.id}/parts`, { message_type: 'close' }, idem)).status).to.equal(500);
    } finally {
      await loseCompletions(false);
    }
    // What the service records when a request answers 5xx (spec 3.2 "released"): here the 5xx came after the commit.
    expect(await db()('idempotency_keys').where({ key: 'released-close-1' }).update({ status: 'released' })).to.equal(1);
    const retry = await t.client.post(`/api/conversations/${conv.body.id}/parts`, { message_type: 'close' }, idem);
    expect(retry.status, retry.text).to.equal(201);
    expect(await feedHead(), 'nothing appended: the close is not decided twice').to.equal(headBefore + 1);
    const [closed] = (await t.client.get(`/api/events?after_seq=${headBefore}`, { key })).body.data;
    expect(retry.body.id).to.equal(closed.payload.part_id);
    expect(retry.body.conversation.state).to.equal('closed');
  });

  it('a key sent again after its reservation was swept: the events it names are in the log, so nothing is applied twice', async () => {
    const conv = await t.client.post('/api/conversations', { channel_id: channelId, body: 'hello', contact: { email: 'swept@example.com' } }, { key });
    const idem = { key, headers: { 'idempotency-key': 'swept-1' } };
    const first = await t.client.post(`/api/conversations/${conv.body.id}/reply`, { body: 'swept reply', message_type: 'note' }, idem);
    expect(first.status, first.text).to.equal(201);
    const headBefore = await feedHead();
    // What the sweep does 24 hours after completion.
    expect(await db()('idempotency_keys').where({ key: 'swept-1' }).del()).to.equal(1);
    const again = await t.client.post(`/api/conversations/${conv.body.id}/reply`, { body: 'swept reply', message_type: 'note' }, idem);
    expect(again.status, again.text).to.equal(201);
    expect(again.body.id).to.equal(first.body.id);
    expect(await feedHead()).to.equal(headBefore);
    const row = await db()('conversations').where({ tenant_id: owner.workspaceId, id: conv.body.id }).first();
    expect(row.parts_count, 'the read model took the reply once').to.equal(2);
  });

  it('reply: the same 201 naming the committed part', async () => {
    const conv = await t.client.post('/api/conversations', { channel_id: channelId, body: 'hello', contact: { email: 'r@example.com' } }, { key });
    const { retry, events } = await crashThenRetry(
      'post',
      `/api/conversations/${conv.body.id}/reply`,
      { body: 'crash reply', message_type: 'comment' },
      { key },
    );
    expect(retry.status, retry.text).to.equal(201);
    expect(events.map((e) => e.type)).to.deep.equal(['conversation_part.created']);
    expect(retry.body.id).to.equal(events[0]!.payload.part_id);
    expect(retry.body.body).to.equal('crash reply');
    expect(retry.body.conversation.parts_count).to.equal(2);
  });

  it('create channel: the same 201 for the committed channel, one sealed secret, and the secret verifies', async () => {
    const body = { kind: 'api', name: 'Crash bridge', default_team_id: null, webhook_secret: 'crash-secret-0123456789' };
    const { retry, events } = await crashThenRetry('post', '/api/channels', body, { key });
    expect(retry.status, retry.text).to.equal(201);
    expect(events.map((e) => e.type)).to.deep.equal(['channel.created']);
    expect(retry.body.id).to.equal(events[0]!.aggregate_id);
    expect(await db()('channels').where({ tenant_id: owner.workspaceId, source: 'crash-bridge' })).to.have.length(1);
    expect(await db()('channel_secrets').where({ tenant_id: owner.workspaceId, channel_id: retry.body.id })).to.have.length(1);
    const orphans = await db().raw(
      'SELECT count(*)::int AS n FROM channel_secrets s WHERE NOT EXISTS (SELECT 1 FROM channels c WHERE c.tenant_id = s.tenant_id AND c.id = s.channel_id)',
    );
    expect(orphans.rows[0].n).to.equal(0);
  });

  it('create key: the same 201 for the committed key, one secret row, and the secret it answers works', async () => {
    const { retry, events } = await crashThenRetry(
      'post',
      '/api/keys',
      { name: 'crash key', scopes: ['events:read'] },
      { cookie: owner.cookie, workspace: owner.workspaceId },
    );
    expect(retry.status, retry.text).to.equal(201);
    expect(events.map((e) => e.type)).to.deep.equal(['api_key.created']);
    expect(retry.body.id).to.equal(events[0]!.aggregate_id);
    const orphans = await db().raw(
      'SELECT count(*)::int AS n FROM api_key_secrets s WHERE NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.tenant_id = s.tenant_id AND k.id = s.key_id)',
    );
    expect(orphans.rows[0].n).to.equal(0);
    expect(await db()('api_key_secrets').where({ key_id: retry.body.id })).to.have.length(1);
    const me = await t.client.get('/api/me', { key: retry.body.secret });
    expect(me.status, me.text).to.equal(200);
    expect(me.body.api_key_id).to.equal(retry.body.id);
  });
});
