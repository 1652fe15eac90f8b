// A primary change as the service meets it behind HAProxy, without Patroni: a
// proxy (test/support/tcp-proxy.ts) between the service and the test's
// Postgres closes every connection at once (the old primary is gone), refuses
// new ones for a while (no node is primary yet: HAProxy accepts and closes),
// and a database made read-only stands in for a node not yet promoted
// (SQLSTATE 25006). What must follow, with nobody restarting anything: broken
// pooled connections are replaced, the LISTEN connection comes back and wakes
// its listeners for what it missed, the dispatcher takes its advisory lock
// again, a process started with no primary waits for one, /readyz says 503 while
// there is no primary, and the metrics count it.
// (The unknown outcome of a COMMIT cut off mid-flight, and its idempotent retry,
// is test/platform/database-outage.e2e.test.ts.)
import { expect } from 'chai';
import pg from 'pg';
import { ManualClock } from '../../src/platform/clock.js';
import { createDb } from '../../src/platform/db/database.js';
import { PgNotifier } from '../../src/eventstore/pg-notifier.js';
import { createTestDb, type TestDb } from '../support/db.js';
import { eventually } from '../support/events.js';
import type { Reply } from '../support/http.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { Receiver } from '../webhooks/receiver.js';

const LISTEN_APP = 'conversation-service-listen';
const SECRETS_KEY = 'primary-change-secrets-key-0123456789abcdef';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('A primary change behind the balancer: reconnects, leadership and readiness without a restart', function () {
  this.timeout(240_000);
  let testDb: TestDb;
  let proxy: TcpProxy;
  let viaProxy: string;
  let t: TestService;
  let owner: Member;
  let key: string;
  let channelId: string;
  let receiver: Receiver;
  const others: TestService[] = [];

  before(async () => {
    testDb = await createTestDb('primary_change', { max: 4, checkEvents: true });
    const direct = new URL(testDb.url);
    proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port) });
    const u = new URL(testDb.url);
    u.port = String(await proxy.start());
    viaProxy = u.toString();
    t = await startTestService('primary_change', {
      clock: new ManualClock(new Date()),
      env: { WEBHOOK_ALLOWLIST: '127.0.0.1', SERVICE_SECRETS_KEY: SECRETS_KEY },
      testDb: { db: testDb.db, url: viaProxy, name: testDb.name, drop: async () => undefined },
    });
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'settings:read', 'settings:write', 'events:read'])).secret;
    channelId = (await createChannel(t, owner)).id;
    receiver = await new Receiver().start();
    const hook = await t.client.post('/api/webhooks', { url: receiver.url, event_names: ['conversation.created'], description: 'primary change' }, { key });
    expect(hook.status, hook.text).to.equal(201);
  });

  after(async () => {
    for (const o of others) await o.close().catch(() => undefined);
    await t?.close();
    await receiver?.close();
    await proxy?.close();
    await testDb?.drop();
  });

  const start = (subject: string, idem?: string) =>
    t.client.post(
      '/api/conversations',
      { channel_id: channelId, subject, body: `${subject}: hello`, contact: { external_id: `pc-${subject}`, name: 'Failover Customer' } },
      { key, headers: idem ? { 'idempotency-key': idem } : {} },
    );

  /** Resends as a client told 503 would (bounded); every answer on the way must be 2xx or 503 with Retry-After. */
  async function untilServed(send: () => Promise<Reply>, seen: number[] = []): Promise<Reply> {
    for (let i = 0; i < 80; i++) {
      const r = await send();
      seen.push(r.status);
      if (r.status !== 503) return r;
      expect(r.headers.get('retry-after'), r.text).to.equal('1');
      expect(r.body.errors[0].code).to.equal('service_unavailable');
      await sleep(100);
    }
    throw new Error(`still 503 after 80 attempts: ${seen.join(', ')}`);
  }

  const metric = async (name: string, labels = ''): Promise<number> => {
    const text = (await t.client.get('/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
    return line ? Number(line.split(' ')[1]) : NaN;
  };

  /** Sessions of the test database holding an advisory lock (the dispatcher's is the only session-level one left). */
  async function lockHolders(): Promise<number[]> {
    const r = await testDb.db.raw(
      `SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()`,
    );
    return (r.rows as { pid: number }[]).map((x) => x.pid);
  }

  it('pooled connections cut under it are dropped and replaced: after one 503 at most per broken connection, every request is served', async () => {
    // Fill the pool: several requests at once each take a connection.
    const warm = await Promise.all(Array.from({ length: 6 }, (_, i) => start(`warm-${i}`)));
    for (const r of warm) expect(r.status, r.text).to.equal(201);
    const cut = proxy.cutAll();
    expect(cut).to.be.above(1);

    const seen: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await untilServed(
        () => (i % 2 === 0 ? start(`after-cut-${i}`, `after-cut-${i}`) : t.client.get('/api/conversations?per_page=5', { key })),
        seen,
      );
      expect(r.status, r.text).to.be.oneOf([200, 201]);
    }
    // No 500, and no broken connection handed out twice.
    expect(seen.filter((s) => s === 503).length).to.be.at.most(cut);
    expect(
      seen.every((s) => s === 200 || s === 201 || s === 503),
      seen.join(','),
    ).to.equal(true);
    expect(await metric('service_db_reconnects_total', '{connection="pool"}')).to.be.above(0);
  });

  it('a node that is not the primary yet (25006, read-only): 503 with Retry-After and /readyz 503; once it is promoted, writes are served again', async () => {
    // Every new session is read-only, as on a standby; the service's connections are cut and come back to it.
    const admin = new pg.Client({ connectionString: testDb.url, options: '-c default_transaction_read_only=off' });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(testDb.name)} SET default_transaction_read_only = on`);
      proxy.cutAll();
      const refused = await untilServedOrReadOnly(() => start('on-a-standby', 'on-a-standby'));
      expect(refused.status, refused.text).to.equal(503);
      expect(refused.headers.get('retry-after')).to.equal('1');
      expect(refused.body.errors[0].code).to.equal('service_unavailable');
      // Until the pool has a session again, readiness may say the database is unreachable (a connect that timed out
      // on a loaded machine, seen once under a load average of 30); what it must come to say is why writes fail.
      const ready = await eventually(
        () => t.client.get('/readyz'),
        (r) => r.status === 503 && r.body?.reason !== 'database unreachable',
      );
      expect(ready.body).to.deep.equal({ status: 'unavailable', reason: 'database is read-only (not the primary)' });
      expect(await metric('service_db_primary_reachable')).to.equal(0);
    } finally {
      // Promotion: new sessions are writable. The sessions opened meanwhile stay read-only; the pool must drop them.
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(testDb.name)} RESET default_transaction_read_only`);
      await admin.end();
    }
    const seen: number[] = [];
    const served = await untilServed(() => start('on-a-standby', 'on-a-standby'), seen);
    expect(served.status, served.text).to.equal(201);
    // And from then on, no write meets a read-only session again.
    for (let i = 0; i < 8; i++) expect((await start(`promoted-${i}`)).status).to.equal(201);
    expect(
      (
        await eventually(
          () => t.client.get('/readyz'),
          (r) => r.status === 200,
        )
      ).body,
    ).to.deep.equal({ status: 'ready' });
    await eventually(
      () => metric('service_db_primary_reachable'),
      (v) => v === 1,
    );
    expect(await metric('service_db_primary_unreachable_seconds_total')).to.be.above(0);
  });

  /** A write answered 503 because its session is read-only (bounded: the service may first have to notice the cut). */
  async function untilServedOrReadOnly(send: () => Promise<Reply>): Promise<Reply> {
    let r = await send();
    for (let i = 0; i < 40 && r.status !== 503; i++) r = await send();
    return r;
  }

  it('the LISTEN connection comes back after a cut, and wakes its listeners for what was committed while it was away', async () => {
    // Another process on the same database (directly, not through the proxy) changes keys: its NOTIFY is
    // how this process learns to drop a cached principal.
    const other = await startTestService('primary_change_b', {
      clock: new ManualClock(new Date()),
      env: { WORKERS: 'off', SERVICE_SECRETS_KEY: SECRETS_KEY },
      testDb: { db: createDb(testDb.url, { max: 2 }), url: testDb.url, name: testDb.name, drop: async () => undefined },
    });
    others.push(other);
    const victim = await mintKey(t, owner, ['conversations:read'], 'revoked while the listener is away');
    const later = await mintKey(t, owner, ['conversations:read'], 'revoked once the listener is back');
    // Each key used once first: whatever a first use writes (and invalidates locally) is done before the cut.
    for (const k of [victim, later]) expect((await t.client.get('/api/conversations?per_page=1', { key: k.secret })).status).to.equal(200);
    await eventually(
      () => proxy.open(LISTEN_APP),
      (n) => n === 1,
    );

    // The LISTEN connection is cut and cannot come back for now; the pool still works.
    proxy.refuse(true, LISTEN_APP);
    const refusedBefore = proxy.refusals;
    expect(proxy.cutAll(LISTEN_APP)).to.equal(1);
    // It noticed: it is trying to listen again (and is refused).
    await eventually(
      () => proxy.refusals,
      (n) => n > refusedBefore,
    );
    expect((await t.client.get('/api/conversations?per_page=1', { key: victim.secret })).status).to.equal(200); // cached again
    const revoked = await other.client.delete(`/api/keys/${victim.id}`, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(revoked.status, revoked.text).to.be.oneOf([200, 204]);
    // (missed: nobody of this process listens)

    proxy.refuse(false);
    await eventually(
      () => proxy.open(LISTEN_APP),
      (n) => n === 1,
    );
    // Back, it wakes the principal cache: the key revoked meanwhile is refused at once, not after the cache's 30 s.
    const afterBack = await eventually(
      () => t.client.get('/api/conversations?per_page=1', { key: victim.secret }),
      (r) => r.status !== 200,
      5_000,
    );
    expect(afterBack.status, afterBack.text).to.equal(401);

    // And it listens again: a key revoked elsewhere now is refused here as well.
    expect((await t.client.get('/api/conversations?per_page=1', { key: later.secret })).status).to.equal(200);
    const revokedLater = await other.client.delete(`/api/keys/${later.id}`, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(revokedLater.status, revokedLater.text).to.be.oneOf([200, 204]);
    const refused = await eventually(
      () => t.client.get('/api/conversations?per_page=1', { key: later.secret }),
      (r) => r.status !== 200,
      5_000,
    );
    expect(refused.status).to.equal(401);
    expect(await metric('service_db_reconnects_total', '{connection="listen"}')).to.be.above(0);
  });

  it('a listener that could not connect at first keeps trying, and hears notifications once it can', async () => {
    const notifier = new PgNotifier(viaProxy);
    const admin = new pg.Client({ connectionString: testDb.url });
    await admin.connect();
    try {
      proxy.refuse(true, LISTEN_APP);
      const heard: string[] = [];
      let failed = false;
      await notifier.listen('primary_change_test', (p) => void heard.push(p)).catch(() => (failed = true));
      expect(failed).to.equal(true);
      proxy.refuse(false);
      await eventually(
        () => proxy.open(LISTEN_APP),
        (n) => n >= 2, // the service's and this one
      );
      await eventually(
        async () => (await admin.query("SELECT pg_notify('primary_change_test', 'hello')"), heard),
        (h) => h.includes('hello'),
      );
    } finally {
      proxy.refuse(false);
      await admin.end();
      await notifier.close();
    }
  });

  it("the dispatcher's advisory lock is taken again on the new primary, and deliveries go on", async () => {
    const before = await eventually(lockHolders, (pids) => pids.length === 1);
    // The primary goes: every connection closes, and for a moment no connection can be made.
    proxy.refuse(true);
    proxy.cutAll();
    const during = await start('during-the-switch');
    expect(during.status, during.text).to.equal(503);
    proxy.refuse(false);

    const after = await eventually(lockHolders, (pids) => pids.length === 1 && pids[0] !== before[0], 15_000);
    expect(after).to.have.length(1);
    const attempts: number[] = [];
    const written = await untilServed(() => start('after-the-switch', 'after-the-switch'), attempts);
    expect(written.status, written.text).to.equal(201);
    expect(written.body.subject, attempts.join(',')).to.equal('after-the-switch');
    const delivered = await eventually(
      () => receiver.bodies(),
      (bodies) => bodies.some((b) => b.type === 'conversation.created' && b.aggregate_id === written.body.id),
      15_000,
    );
    expect(delivered.filter((b) => b.aggregate_id === written.body.id)).to.have.length(1);
    expect(await metric('service_db_reconnects_total', '{connection="lock"}')).to.be.above(0);
  });

  it('a process started while there is no primary waits for one, and comes up by itself', async () => {
    proxy.refuse(true);
    const starting = startTestService('primary_change_c', {
      clock: new ManualClock(new Date()),
      env: { WORKERS: 'off', SERVICE_SECRETS_KEY: SECRETS_KEY },
      testDb: { db: createDb(testDb.url, { max: 2 }), url: viaProxy, name: testDb.name, drop: async () => undefined },
    });
    let settled = false;
    void starting.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Refused a few times (each attempt is accepted and closed by the proxy) before the primary is there.
    await eventually(
      () => proxy.refusals,
      (n) => n >= 3,
    );
    expect(settled).to.equal(false);
    proxy.refuse(false);
    const c = await starting;
    others.push(c);
    expect((await c.client.get('/readyz')).status).to.equal(200);
    expect((await c.client.get('/api/conversations?per_page=1', { key })).status).to.equal(200);
  });
});
