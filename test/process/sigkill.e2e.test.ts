// Crash safety of the real process: SIGKILL the service in the middle of a
// burst of concurrent writes, restart it on the same database, and find every
// acknowledged write exactly once, the tenant's seqs gapless and the read
// models caught up to the log.
import { expect } from 'chai';
import { serviceCluster } from '../support/service-cluster.js';
import { eventually } from '../support/events.js';
import { eventsAsStored, headAsStored, testStoreKind } from '../support/event-store.js';
import { childEnv, exitWithin, runCli, signInOver } from '../support/process.js';

const WRITERS = 8;
const KILL_AFTER = 150;
/** per writer: far more than it can send before the kill, so the bound never ends the burst early */
const MAX_PER_WRITER = 200;
// A hang guard, not a speed check: on a loaded machine with the log in EventStoreDB 150 writes took over a minute.
const BURST_DEADLINE_MS = 180_000;

describe('process: SIGKILL during a burst of writes', function () {
  this.timeout(360_000);

  const cluster = serviceCluster('sigkill', {});
  const start = () => cluster.start();

  it('keeps every acknowledged write, exactly once, with gapless seqs and complete read models', async () => {
    // Bootstrap through the real CLI against DATABASE_URL.
    const email = 'owner@sigkill.example.com';
    const password = 'correct horse battery';
    const cli = await runCli(
      ['workspace', 'create', '--name', 'Crash Co', '--owner-email', email, '--owner-password', password],
      childEnv({ ...cluster.env(), LOG_LEVEL: 'warn' }),
    );
    expect(cli.exit.code, `cli failed\n${cli.stderr}\n${cli.stdout}`).to.equal(0);
    const tenant: string = cli.json?.workspace_id;
    expect(tenant, cli.stdout).to.be.a('string');

    const first = await start();
    const session = await signInOver(first.client, email, password);
    expect(session.status, session.text).to.equal(201);
    const keyReply = await first.client.post(
      '/api/keys',
      { name: 'burst', scopes: ['members:invite', 'members:read'] },
      { cookie: session.cookie, workspace: tenant },
    );
    expect(keyReply.status, keyReply.text).to.equal(201);
    const key: string = keyReply.body.secret;

    // The burst: WRITERS loops sending invites until the service dies under them.
    const acked: string[] = [];
    const failures: string[] = [];
    let killed = false;
    let inFlight = 0;
    let inFlightAtKill = 0;
    const deadline = Date.now() + BURST_DEADLINE_MS;
    const writer = async (w: number) => {
      for (let i = 0; i < MAX_PER_WRITER && Date.now() < deadline; i++) {
        let r;
        inFlight++;
        try {
          r = await first.client.post('/api/members/invites', { email: `w${w}-${i}@burst.example.com`, role: 'agent' }, { key });
        } catch (e) {
          if (!killed) failures.push(`writer ${w} #${i}: ${String((e as Error).cause ?? e)}`);
          return; // the service is gone: this writer is done
        } finally {
          inFlight--;
        }
        if (r.status !== 201) {
          if (!killed) failures.push(`writer ${w} #${i}: ${r.status} ${r.text}`);
          return;
        }
        acked.push(r.body.id);
        if (acked.length >= KILL_AFTER && !killed) {
          killed = true;
          inFlightAtKill = inFlight; // the other writers' requests, sent and unanswered
          first.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    expect(failures, `requests failed before the kill\n${first.tail()}`).to.deep.equal([]);
    expect(killed, `the burst ended before ${KILL_AFTER} writes were acknowledged (${acked.length})`).to.equal(true);
    expect(inFlightAtKill, 'no request was in flight when the service was killed').to.be.greaterThan(0);
    const crash = await exitWithin(first, 10_000, 'killed service');
    expect(crash.signal).to.equal('SIGKILL');
    expect(new Set(acked).size).to.equal(acked.length);

    const second = await start();
    const db = cluster.testDb.db;

    // Every acknowledged invite has exactly one member.invited event (read from the log the run uses: the Postgres
    // `events` table, or the workspace's stream with TEST_EVENT_STORE=eventstoredb).
    const log = await eventsAsStored(db, cluster.testDb.url, testStoreKind(), tenant);
    const perInvite = new Map<string, number>();
    for (const e of log) {
      if (e.type !== 'member.invited') continue;
      const id = String(e.payload.invite_id);
      perInvite.set(id, (perInvite.get(id) ?? 0) + 1);
    }
    const missing = acked.filter((id) => perInvite.get(id) === undefined);
    const duplicated = [...perInvite].filter(([, n]) => n !== 1);
    expect(missing, 'acknowledged invites missing from the log').to.deep.equal([]);
    expect(duplicated, 'invites with more than one event').to.deep.equal([]);

    // The tenant's seqs are exactly 1..N; the head and the projection checkpoint are both at N.
    const seqs = log.map((e) => e.seq);
    const n = seqs.length;
    expect(n).to.be.at.least(acked.length + 2); // workspace.created + the owner's member.joined
    expect(seqs).to.deep.equal(Array.from({ length: n }, (_, i) => i + 1));
    expect(await headAsStored(db, cluster.testDb.url, tenant)).to.equal(n);
    // On Postgres the read models are written with the events; on EventStoreDB the restarted service's catch-up
    // projector brings them to the log's head, after the start: wait for it there.
    const checkpoint = async () => Number((await db('projection_checkpoints').where({ tenant_id: tenant }).first('last_seq'))?.last_seq ?? 0);
    if (testStoreKind() === 'eventstoredb') await eventually(checkpoint, (c) => c >= n, 60_000);
    expect(await checkpoint(), 'read models behind the log').to.equal(n);
    const projected = await db('invites').where({ tenant_id: tenant }).pluck('id');
    expect(projected.length).to.equal(perInvite.size);
    expect(projected).to.include.members(acked);

    // The restarted service takes writes again, right after the crash's last event.
    const after = await second.client.post('/api/members/invites', { email: 'after-restart@burst.example.com', role: 'agent' }, { key });
    expect(after.status, after.text).to.equal(201);
    const next = (await eventsAsStored(db, cluster.testDb.url, testStoreKind(), tenant)).find((e) => e.payload.invite_id === after.body.id);
    expect(next).to.deep.include({ seq: n + 1, type: 'member.invited' });
    const listed = await second.client.get('/api/members', { key });
    expect(listed.status, listed.text).to.equal(200);

    second.kill('SIGTERM');
    const stop = await exitWithin(second, 30_000, 'service after SIGTERM');
    expect(stop, second.tail()).to.deep.equal({ code: 0, signal: null });
  });
});
