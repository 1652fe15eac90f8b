import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { addMember, mintKey, newWorkspace, signIn, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';

describe('Idempotency-Key', function () {
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let key: string;
  let channelId: string;
  const convCount = async () => Number((await t.testDb.db('conversations').where({ tenant_id: owner.workspaceId }).count<{ n: string }[]>({ n: '*' }))[0]!.n);

  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('idempotency', { clock });
    owner = await newWorkspace(t);
    channelId = (await createChannel(t, owner)).id;
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write'])).secret;
  });
  after(async () => t.close());

  const create = (idem: string, body: Record<string, unknown> = {}, k = key) =>
    t.client.post(
      '/api/conversations',
      { channel_id: channelId, body: 'Hello from the team', contact: { email: 'buyer@example.com' }, ...body },
      { key: k, headers: { 'idempotency-key': idem } },
    );

  it('creates exactly one conversation for 20 concurrent identical requests, and replays the 201 byte for byte', async () => {
    const before = await convCount();
    const answers = await Promise.all(Array.from({ length: 20 }, () => create('order-123')));
    const created = answers.filter((a) => a.status === 201);
    const inFlight = answers.filter((a) => a.status === 409);
    expect(created.length + inFlight.length).to.equal(20);
    expect(created.length).to.be.at.least(1);
    for (const a of inFlight) {
      expect(a.headers.get('retry-after')).to.equal('1');
      expect(a.body.errors[0].code).to.equal('idempotency_key_in_flight');
    }
    const firstReplayed = created.filter((a) => a.headers.get('idempotent-replayed') !== 'true');
    expect(firstReplayed).to.have.length(1);
    expect(await convCount()).to.equal(before + 1);
    const replay = await create('order-123');
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.text).to.equal(firstReplayed[0]!.text);
    for (const a of created) expect(a.text).to.equal(firstReplayed[0]!.text);
  });

  it('keeps each workspace its own keys when their requests are reserved and stored together', async () => {
    // Reservations and answers of all workspaces share statements (batched on the owner pool):
    // each row must land under its own workspace, and each replay find its own answer.
    const others = await Promise.all(
      [1, 2, 3].map(async () => {
        const o = await newWorkspace(t);
        return { o, channel: (await createChannel(t, o)).id, key: (await mintKey(t, o, ['conversations:read', 'conversations:write'])).secret };
      }),
    );
    const send = (w: (typeof others)[number], n: number) =>
      t.client.post(
        '/api/conversations',
        { channel_id: w.channel, body: `Hello ${n}`, contact: { email: `buyer${n}@example.com` } },
        { key: w.key, headers: { 'idempotency-key': `batch-${n}` } },
      );
    const firsts = await Promise.all(others.flatMap((w) => [1, 2, 3, 4].map((n) => send(w, n))));
    expect(firsts.map((a) => a.status)).to.deep.equal(firsts.map(() => 201));
    const replays = await Promise.all(others.flatMap((w) => [1, 2, 3, 4].map((n) => send(w, n))));
    replays.forEach((r, i) => {
      expect(r.headers.get('idempotent-replayed')).to.equal('true');
      expect(r.text).to.equal(firsts[i]!.text);
    });
    for (const w of others) {
      const rows = await t.testDb.db('idempotency_keys').where({ tenant_id: w.o.workspaceId }).orderBy('key').select('key', 'status');
      expect(rows).to.deep.equal([1, 2, 3, 4].map((n) => ({ key: `batch-${n}`, status: 'completed' })));
      expect(Number((await t.testDb.db('conversations').where({ tenant_id: w.o.workspaceId }).count<{ n: string }[]>({ n: '*' }))[0]!.n)).to.equal(4);
    }
  });

  it('answers the same key with another body 422 idempotency_key_reused', async () => {
    expect((await create('reuse-1')).status).to.equal(201);
    const r = await create('reuse-1', { body: 'something else' });
    expect(r.status).to.equal(422);
    expect(r.body.errors[0].code).to.equal('idempotency_key_reused');
  });

  it('scopes keys to the caller: the same value from another caller is independent', async () => {
    const agent = await addMember(t, owner, 'agent');
    const agentKey = (await mintKey(t, agent, ['conversations:write'])).secret;
    const before = await convCount();
    const a = await create('shared-value');
    const b = await create('shared-value', {}, agentKey);
    expect(a.status).to.equal(201);
    expect(b.status).to.equal(201);
    expect(b.headers.get('idempotent-replayed')).to.equal(null);
    expect(b.body.id).to.not.equal(a.body.id);
    expect(await convCount()).to.equal(before + 2);
  });

  it('releases the key when the request answers 5xx, so a retry runs the work again', async () => {
    const db = t.testDb.db;
    // Every creation writes a part in its command's transaction (a channel's facts may come from memory).
    await db.raw('ALTER TABLE conversation_parts RENAME TO conversation_parts_away');
    let failed;
    try {
      failed = await create('flaky-1');
    } finally {
      await db.raw('ALTER TABLE conversation_parts_away RENAME TO conversation_parts');
    }
    expect(failed.status).to.equal(500);
    expect(failed.body.errors[0].code).to.equal('internal_error');
    const retry = await create('flaky-1');
    expect(retry.status).to.equal(201);
    expect(retry.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('stores 4xx answers and replays them', async () => {
    const bad = await create('bad-ref', { channel_id: '00000000-0000-4000-8000-000000000000' });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0].code).to.equal('unknown_channel');
    const again = await create('bad-ref', { channel_id: '00000000-0000-4000-8000-000000000000' });
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.text).to.equal(bad.text);
  });

  it('frees a key whose request never finished once its lease runs out', async () => {
    const db = t.testDb.db;
    const me = await t.client.get('/api/me', { key });
    const callerId = `key:${me.body.api_key_id}`;
    await db('idempotency_keys').insert({
      tenant_id: owner.workspaceId,
      caller_id: callerId,
      key: 'crashed-1',
      fingerprint: 'x',
      status: 'in_flight',
      locked_until: new Date(clock.now().getTime() + 60_000),
      created_at: clock.now(),
    });
    const blocked = await create('crashed-1');
    expect(blocked.status).to.equal(409);
    clock.advance(61_000);
    const taken = await create('crashed-1');
    expect(taken.status).to.equal(201);
  });

  it('reaps completed keys 24 hours after completion', async () => {
    expect((await create('sweep-me')).status).to.equal(201);
    clock.advance(25 * 3600_000);
    const { Idempotency } = await import('../../src/api/idempotency/idempotency.js');
    const reaped = await new Idempotency(
      t.testDb.db,
      clock,
      t.service.deps.sealer,
      t.service.deps.forgettable,
      { db: t.testDb.db, scope: t.service.deps.scope },
      t.service.deps.ids,
    ).sweep();
    expect(reaped).to.be.greaterThan(0);
    const fresh = await create('sweep-me', { body: 'a different body is fine now' });
    expect(fresh.status).to.equal(201);
    expect(fresh.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('keeps a replayable key secret sealed at rest, and replays it only to the same caller', async () => {
    owner.cookie = await signIn(t, owner.email, owner.password); // earlier tests moved the clock a day on
    const minted = await t.client.post(
      '/api/keys',
      { name: 'idem', scopes: ['conversations:read'] },
      { cookie: owner.cookie, workspace: owner.workspaceId, headers: { 'idempotency-key': 'mint-1' } },
    );
    expect(minted.status).to.equal(201);
    const stored = await t.testDb.db('idempotency_keys').where({ tenant_id: owner.workspaceId, key: 'mint-1' }).first();
    expect(stored.response_body).to.be.a('string').and.not.include(minted.body.secret.slice(-43));
    const replay = await t.client.post(
      '/api/keys',
      { name: 'idem', scopes: ['conversations:read'] },
      { cookie: owner.cookie, workspace: owner.workspaceId, headers: { 'idempotency-key': 'mint-1' } },
    );
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.text).to.equal(minted.text);
  });

  it('refuses an over-long key', async () => {
    const r = await create('k'.repeat(256));
    expect(r.status).to.equal(400);
    expect(r.body.errors[0].code).to.equal('invalid_idempotency_key');
  });
});
