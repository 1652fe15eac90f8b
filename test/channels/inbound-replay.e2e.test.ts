// Replays on the signed inbound route (issue 35, item 4). The contract's
// signature covers the body only, not x-service-timestamp, so a captured post
// could be sent again with a fresh timestamp. Every accepted signature is
// remembered (in Postgres, in the post's own transaction) and a second post with
// it is refused with the same empty 401, whatever its timestamp, in any process.
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { createChannel, inboundBody, postInbound, sign } from '../support/channels.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { CHANNELS_SECRET, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

const SECRETS_KEY = 'inbound-replay-test-secrets-key-0123456789';

describe('replays on the signed inbound route', function () {
  this.timeout(120_000);
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let ch: { id: string; secret: string };

  before(async () => {
    // The system's time: a second process (the system clock) shares the database below.
    clock = new ManualClock(new Date());
    t = await startTestService('inbound_replay', { clock, env: { SERVICE_SECRETS_KEY: SECRETS_KEY } });
    owner = await newWorkspace(t);
    ch = await createChannel(t, owner);
  });
  after(async () => t.close());

  it('a signature replayed with a fresh timestamp is refused with the empty 401', async () => {
    const raw = JSON.stringify(inboundBody({ message_id: 'm-1' }));
    const first = await postInbound(t, ch.id, ch.secret, undefined, { raw });
    expect(first.status, first.text).to.equal(201);
    const head = await t.service.deps.store.head(owner.workspaceId);

    clock.advance(60_000);
    const replay = await postInbound(t, ch.id, ch.secret, undefined, { raw, timestamp: Math.floor(clock.now().getTime() / 1000) });
    expect(replay.status).to.equal(401);
    expect(replay.text).to.equal('');
    // Whatever the timestamp: an old one gets the same empty answer, not stale_timestamp.
    const stale = await postInbound(t, ch.id, ch.secret, undefined, { raw, timestamp: Math.floor(clock.now().getTime() / 1000) - 3600 });
    expect(stale.status).to.equal(401);
    expect(stale.text).to.equal('');
    // The answer is the one a forged signature gets.
    const forged = await postInbound(t, ch.id, ch.secret, undefined, { raw, signature: sign('not the secret 0123456789', raw) });
    expect(forged.status).to.equal(401);
    expect([...replay.headers.keys()].filter((k) => k !== 'date' && k !== 'x-request-id').sort()).to.deep.equal(
      [...forged.headers.keys()].filter((k) => k !== 'date' && k !== 'x-request-id').sort(),
    );
    expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(head);

    // Different bytes (another message of the thread) are a new post.
    expect((await postInbound(t, ch.id, ch.secret, inboundBody({ message_id: 'm-2' }))).status).to.equal(201);
  });

  it('a post refused before it was accepted leaves its signature free: one copy gets in, once', async () => {
    const raw = JSON.stringify(inboundBody());
    const now = Math.floor(clock.now().getTime() / 1000);
    const stale = await postInbound(t, ch.id, ch.secret, undefined, { raw, timestamp: now - 3600 });
    expect(stale.status).to.equal(401);
    expect(stale.body.errors[0].code).to.equal('stale_timestamp');
    expect((await postInbound(t, ch.id, ch.secret, undefined, { raw, timestamp: now })).status).to.equal(201);
    expect((await postInbound(t, ch.id, ch.secret, undefined, { raw, timestamp: now + 1 })).status).to.equal(401);
  });

  it('of concurrent copies of one post, exactly one is accepted', async () => {
    const raw = JSON.stringify(inboundBody());
    const answers = await Promise.all(Array.from({ length: 20 }, () => postInbound(t, ch.id, ch.secret, undefined, { raw })));
    const statuses = answers.map((a) => a.status).sort();
    expect(
      statuses.filter((s) => s === 201),
      JSON.stringify(statuses),
    ).to.have.length(1);
    expect(statuses.filter((s) => s === 401)).to.have.length(19);
  });

  it('holds across processes: copies sent to two services on one database, one accepted', async () => {
    let other: ServiceProcess | null = null;
    try {
      other = await spawnService({
        DATABASE_URL: t.testDb.url,
        SERVICE_CHANNELS_SECRET: CHANNELS_SECRET,
        SERVICE_SECRETS_KEY: SECRETS_KEY,
        WORKERS: 'off',
      });
      clock.set(new Date());
      const raw = JSON.stringify(inboundBody());
      const headers = () => ({
        'content-type': 'application/json',
        'x-service-signature': sign(ch.secret, raw),
        'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
      });
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? other!.client : t.client).post(`/api/channels/${ch.id}/inbound`, undefined, { raw, headers: headers() })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(
        statuses.filter((s) => s === 201),
        JSON.stringify(statuses),
      ).to.have.length(1);
      expect(statuses.filter((s) => s === 401)).to.have.length(9);
      // And later, to either of them.
      expect((await other.client.post(`/api/channels/${ch.id}/inbound`, undefined, { raw, headers: headers() })).status).to.equal(401);
    } finally {
      if (other) {
        other.kill('SIGTERM');
        await other.exited;
      }
    }
  });

  it('the signatures remembered are hashes, and they are forgotten when their time is up', async () => {
    const raw = JSON.stringify(inboundBody());
    const signature = sign(ch.secret, raw);
    expect((await postInbound(t, ch.id, ch.secret, undefined, { raw })).status).to.equal(201);
    const rows = await t.testDb.db('inbound_signatures').where({ channel_id: ch.id });
    expect(rows.length).to.be.greaterThan(0);
    expect(JSON.stringify(rows)).to.not.include(signature);
    // Ten minutes on (twice the timestamp tolerance), the same bytes with a fresh timestamp find their thread filed.
    clock.advance(10 * 60_000 + 1000);
    const late = await postInbound(t, ch.id, ch.secret, undefined, { raw, timestamp: Math.floor(clock.now().getTime() / 1000) });
    expect(late.status).to.equal(202);
  });
});
