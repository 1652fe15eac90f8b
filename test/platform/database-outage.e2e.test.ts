// The database goes away under a request: a Postgres of this file's own is
// stopped (pg_ctl stop -m fast) while a write waits inside its transaction, and
// a proxy cuts a connection after COMMIT reached the server but before its
// answer came back (the unknown-outcome case). What a client must see: 503 with
// Retry-After, never 500; a retry with the same Idempotency-Key served as soon
// as the database is back (the clock here never moves, so no lease runs out:
// only the release made on reconnect can free the key); and the write in the
// log exactly once.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { ManualClock } from '../../src/platform/clock.js';
import { createDb, ensureDatabase } from '../../src/platform/db/database.js';
import { startEmbeddedPostgres, type EmbeddedCluster } from '../../src/platform/db/embedded-postgres.js';
import { createChannel } from '../support/channels.js';
import type { Reply } from '../support/http.js';
import { eventsAsStored } from '../support/event-store.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('A database outage under load: 503 with Retry-After, and keys free again when it is back', function () {
  this.timeout(240_000);
  let dir: string;
  let cluster: EmbeddedCluster;
  let proxy: TcpProxy;
  let directUrl: string;
  let t: TestService;
  let owner: Member;
  let key: string;
  let conversationId: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cs-outage-'));
    cluster = await startEmbeddedPostgres({ dataDir: dir, adoptOrphans: true, log: () => undefined });
    await ensureDatabase(cluster.url('postgres'), 'outage');
    directUrl = cluster.url('outage');
    proxy = new TcpProxy({ host: '127.0.0.1', port: cluster.port });
    const viaProxy = new URL(directUrl);
    viaProxy.port = String(await proxy.start());
    const db = createDb(directUrl, { max: 4 });
    // On Postgres even with TEST_EVENT_STORE=eventstoredb: every case cuts the connection that carries the append's
    // transaction (a write waiting in it, a COMMIT lost, a group commit's COMMIT lost). On EventStoreDB the append is
    // not in Postgres, so those moments do not exist there (a Postgres outage then fails the writes beside the log and
    // the projections instead: docs/eventstoredb.md, "Gaps that remain").
    t = await startTestService('outage', {
      clock: new ManualClock(new Date()),
      testDb: { db, url: viaProxy.toString(), name: 'outage', drop: () => db.destroy() },
      env: { EVENTSTORE_URL: undefined },
    });
    expect(t.service.deps.store.kind).to.equal('postgres');
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'settings:read', 'settings:write', 'events:read'])).secret;
    const channel = await createChannel(t, owner);
    const opened = await t.client.post(
      '/api/conversations',
      { channel_id: channel.id, body: 'Hello', contact: { external_id: 'outage-1', name: 'Outage Customer' } },
      { key },
    );
    expect(opened.status, opened.text).to.equal(201);
    conversationId = opened.body.id;
  });

  after(async () => {
    await t?.close();
    await proxy?.close();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const reply = (idem: string, body: string) =>
    t.client.post(`/api/conversations/${conversationId}/reply`, { body, message_type: 'comment' }, { key, headers: { 'idempotency-key': idem } });
  /** The workspace's log as stored, read beside the service (the Postgres `events` table, or its EventStoreDB stream). */
  const logOf = () => eventsAsStored(t.testDb.db, t.testDb.url, t.service.deps.store.kind, owner.workspaceId);
  const eventsOf = async (type: string, field: string, value: string) => (await logOf()).filter((e) => e.type === type && e.payload[field] === value).length;
  const eventCount = async () => (await logOf()).length;

  /** Retries as a client told 503 or 409 in flight would (bounded); the first other answer. */
  async function retryUntilServed(send: () => Promise<Reply>): Promise<Reply> {
    let r = await send();
    for (let i = 0; i < 60 && (r.status === 503 || (r.status === 409 && r.body?.errors?.[0]?.code === 'idempotency_key_in_flight')); i++) {
      await sleep(250);
      r = await send();
    }
    return r;
  }

  function expectUnavailable(r: Reply): void {
    expect(r.status, r.text).to.equal(503);
    expect(r.headers.get('retry-after')).to.equal('1');
    expect(r.body.type).to.equal('error.list');
    expect(r.body.errors[0].code).to.equal('service_unavailable');
  }

  it('a write waiting in its transaction when Postgres shuts down answers 503, and its retry is served once Postgres is back', async () => {
    const before = await eventCount();
    // Another session holds the workspace's append lock, so the reply waits inside its transaction.
    const blocker = new pg.Client({ connectionString: directUrl });
    blocker.on('error', () => undefined); // the shutdown ends this session too
    await blocker.connect();
    await blocker.query('SELECT pg_advisory_lock(hashtextextended($1::text, 0))', [owner.workspaceId]);
    const inFlight = reply('cut-by-shutdown', 'Sent while Postgres stops');
    for (let i = 0; i < 200; i++) {
      const waiting = await blocker.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'`);
      if (waiting.rows[0].n > 0) break;
      await sleep(25);
    }
    await cluster.halt('fast');
    try {
      expectUnavailable(await inFlight);
      // While it is down: readiness says so, and a new write is answered 503 as well.
      const ready = await t.client.get('/readyz');
      expect(ready.status, ready.text).to.equal(503);
      expect(ready.body).to.deep.equal({ status: 'unavailable', reason: 'database unreachable' });
      expectUnavailable(await reply('sent-while-down', 'Sent while Postgres is down'));
    } finally {
      await cluster.resume();
      await blocker.end().catch(() => undefined);
    }
    expect((await t.client.get('/readyz')).status).to.equal(200);

    // The manual clock never moves: a key still held would stay held. Served means it was released on reconnect.
    const retried = await retryUntilServed(() => reply('cut-by-shutdown', 'Sent while Postgres stops'));
    expect(retried.status, retried.text).to.equal(201);
    expect(await eventsOf('conversation_part.created', 'part_id', retried.body.id)).to.equal(1);
    const down = await retryUntilServed(() => reply('sent-while-down', 'Sent while Postgres is down'));
    expect(down.status, down.text).to.equal(201);
    expect(await eventCount()).to.equal(before + 2);
    // And from now on each is replayed as stored.
    const again = await reply('cut-by-shutdown', 'Sent while Postgres stops');
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.text).to.equal(retried.text);
  });

  it('a connection lost during COMMIT answers 503; the retry replays the answer stored with the events, written once', async () => {
    const idem = `lost-commit-reply-${Date.now()}`;
    const before = await eventCount();
    const cut = proxy.cutAfterCommitOf(idem);
    const first = await reply(idem, 'Committed, acknowledgement lost');
    await cut;
    expectUnavailable(first);
    // The COMMIT went through: the event is in the log although the service never heard so.
    expect(await eventCount()).to.equal(before + 1);
    const retried = await reply(idem, 'Committed, acknowledgement lost');
    expect(retried.status, retried.text).to.equal(201);
    expect(retried.headers.get('idempotent-replayed')).to.equal('true');
    expect(await eventsOf('conversation_part.created', 'part_id', retried.body.id)).to.equal(1);
    expect(await eventCount()).to.equal(before + 1);
  });

  it('a group commit whose COMMIT is lost is not run again command by command (that would write the ones without a key twice)', async () => {
    const idem = `lost-commit-group-${Date.now()}`;
    const before = await eventCount();
    // Hold the append lock so that the first reply waits in its transaction and the next three queue behind it: one group.
    const blocker = new pg.Client({ connectionString: directUrl });
    await blocker.connect();
    await blocker.query('SELECT pg_advisory_lock(hashtextextended($1::text, 0))', [owner.workspaceId]);
    const plain = (body: string) => t.client.post(`/api/conversations/${conversationId}/reply`, { body, message_type: 'comment' }, { key });
    const first = plain('Group: first, alone');
    for (let i = 0; i < 200; i++) {
      const waiting = await blocker.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'`);
      if (waiting.rows[0].n > 0) break;
      await sleep(25);
    }
    const cut = proxy.cutAfterCommitOf(idem);
    const grouped = [reply(idem, 'Group: with a key'), plain('Group: no key 1'), plain('Group: no key 2')];
    for (let i = 0; i < 200 && t.service.deps.shell.pending(owner.workspaceId) < 3; i++) await sleep(10);
    expect(t.service.deps.shell.pending(owner.workspaceId)).to.equal(3);
    await blocker.query('SELECT pg_advisory_unlock(hashtextextended($1::text, 0))', [owner.workspaceId]);
    await blocker.end();
    expect((await first).status).to.equal(201);
    await cut;
    for (const r of await Promise.all(grouped)) expectUnavailable(r);
    // The group committed once: four replies in all, none written again.
    expect(await eventCount()).to.equal(before + 4);
    const retried = await reply(idem, 'Group: with a key');
    expect(retried.status, retried.text).to.equal(201);
    expect(await eventCount()).to.equal(before + 4);
  });

  it('a connection lost during COMMIT of a write answered after its commit: 503, and the retry finds the commit instead of writing again', async () => {
    const name = `lost-commit-tag-${Date.now()}`;
    const idem = `tag-${name}`;
    const before = await eventCount();
    const create = () => t.client.post('/api/tags', { name }, { key, headers: { 'idempotency-key': idem } });
    const cut = proxy.cutAfterCommitOf(name);
    const first = await create();
    await cut;
    expectUnavailable(first);
    expect(await eventCount()).to.equal(before + 1);
    const retried = await retryUntilServed(create);
    expect(retried.status, retried.text).to.equal(201);
    expect(retried.body.name).to.equal(name);
    expect(await eventsOf('tag.created', 'name', name)).to.equal(1);
    expect(await eventCount()).to.equal(before + 1);
  });
});
