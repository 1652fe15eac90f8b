// Sign-in that cannot be stalled: failed attempts are throttled per account and
// per client address (token buckets in Postgres), refused with 429 before any
// password hashing, and password hashing is shared round-robin across accounts,
// so a burst against one account neither gets through nor holds up anyone else.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { expect } from 'chai';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/platform/clock.js';
import { createLogger } from '../../src/platform/logger.js';
import { startService, type Service } from '../../src/service.js';
import { ACCOUNT_BUCKET, ADDRESS_BUCKET } from '../../src/capabilities/users/throttle.js';
import { sha256Hex } from '../../src/platform/crypto/hmac.js';
import { testEventStoreEnv } from '../support/event-store.js';
import { hashScheduler, holdSlot } from '../support/hash-slots.js';
import { eventually } from '../support/events.js';
import { Client } from '../support/http.js';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

const BURST = 200;

interface Answer {
  status: number;
  text: string;
  body: any;
  retryAfter: string | null;
  at: number;
}

/** POST /api/session from a chosen local address (127.0.0.0/8 is all loopback), so the test can be two clients. */
function signInFrom(base: string, localAddress: string, email: string, password: string): Promise<Answer> {
  const u = new URL('/api/session', base);
  const payload = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode!, text, body, retryAfter: (res.headers['retry-after'] as string | undefined) ?? null, at: performance.now() });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const withoutRequestId = (text: string) => {
  const b = JSON.parse(text) as { request_id?: string };
  delete b.request_id;
  return JSON.stringify(b);
};

describe('sign-in throttling and fair password hashing', function () {
  this.timeout(240_000);
  let t: TestService;
  let clock: ManualClock;
  let target: Member; // the account under attack
  let bystander: Member; // another user signing in during the burst

  before(async () => {
    clock = new ManualClock(new Date());
    // The fixture's cheap hashing cost: the test holds the hashing slots itself (test/support/hash-slots.ts), so what
    // queues behind a burst does not depend on how long a derivation takes.
    t = await startTestService('signin_throttle', { clock });
    target = await newWorkspace(t, 'Target');
    bystander = await newWorkspace(t, 'Bystander');
  });
  after(async () => t.close());

  /** a fresh window: every bucket full again */
  const nextWindow = () => clock.advance(3600_000);

  it(`refuses most of a ${BURST}-attempt burst with 429 before hashing, while another user's correct sign-in takes the next free hashing slot, ahead of the burst's queued checks`, async () => {
    nextWindow();
    const base = t.service.url;
    // The test holds both hashing slots (lanes of its own), so nothing derives until it lets go: what runs next is
    // decided by the scheduler's order, never by which request happens to be faster.
    const slots = [holdSlot('test holds slot 0'), holdSlot('test holds slot 1')];
    expect(hashScheduler.stats()).to.include({ running: 2, waiting: 0 });
    const burst = Array.from({ length: BURST }, () => signInFrom(base, '127.0.0.1', target.email, 'wrong password, attempt'));
    // Every attempt the account's bucket lets through waits for a slot (the rest are answered 429 before hashing),
    await eventually(
      () => hashScheduler.stats().waiting,
      (w) => w === ACCOUNT_BUCKET.capacity,
    );
    // then the other user signs in from another address,
    const bystanderAnswer = signInFrom(base, '127.0.0.2', bystander.email, bystander.password);
    await eventually(
      () => hashScheduler.stats().waiting,
      (w) => w === ACCOUNT_BUCKET.capacity + 1,
    );
    // and a third holder queues behind both. Round-robin over accounts: the slot let go goes to the burst's first
    // check, the next to the bystander, the next to the third holder. First come, first served would run all ten
    // of the burst's checks before the bystander's.
    const third = holdSlot('test holds the third turn');
    slots[0]!.release();
    const answer = await bystanderAnswer;
    expect(answer.status, answer.text).to.equal(201);
    await eventually(third.started, (s) => s === true);
    // The bystander is signed in and the third holder has its slot: of the burst, one check ran, nine still wait.
    expect(hashScheduler.stats()).to.include({ running: 2, waiting: ACCOUNT_BUCKET.capacity - 1 });
    slots[1]!.release();
    third.release();
    await Promise.all([...slots, third].map((h) => h.done));
    const answers = await Promise.all(burst);

    const byStatus = new Map<number, Answer[]>();
    for (const a of answers) byStatus.set(a.status, [...(byStatus.get(a.status) ?? []), a]);
    expect([...byStatus.keys()].sort()).to.deep.equal([401, 429]);
    // exactly the account's burst got to the password check; the rest never hashed
    expect(byStatus.get(401)).to.have.length(ACCOUNT_BUCKET.capacity);
    expect(byStatus.get(429)).to.have.length(BURST - ACCOUNT_BUCKET.capacity);
    for (const a of byStatus.get(429)!) {
      expect(a.body.type).to.equal('error.list');
      expect(a.body.errors).to.have.length(1);
      expect(a.body.errors[0].code).to.equal('too_many_attempts');
      expect(a.retryAfter, 'Retry-After').to.match(/^[1-9]\d*$/);
    }
    // the account's bucket refills one token every 6 s: that is what it says to wait
    expect(Math.max(...byStatus.get(429)!.map((a) => Number(a.retryAfter)))).to.equal(Math.ceil(1 / ACCOUNT_BUCKET.refillPerSecond));

    // even the right password is refused while the account's bucket is empty
    const early = await signInFrom(base, '127.0.0.1', target.email, target.password);
    expect(early.status).to.equal(429);

    // after the window (the injected clock moves; nobody sleeps) the owner signs in
    clock.advance(Number(early.retryAfter) * 1000);
    const later = await signInFrom(base, '127.0.0.3', target.email, target.password);
    expect(later.status, later.text).to.equal(201);
  });

  it('answers a wrong e-mail and a wrong password byte for byte the same (but the request id), and throttles both alike', async () => {
    nextWindow();
    const unknown = `nobody-${Date.now()}@example.com`;
    const wrongEmail = await t.client.post('/api/session', { email: unknown, password: 'whatever it is' });
    const wrongPassword = await t.client.post('/api/session', { email: target.email, password: 'whatever it is' });
    expect(wrongEmail.status).to.equal(401);
    expect(wrongPassword.status).to.equal(401);
    expect(withoutRequestId(wrongEmail.text)).to.equal(withoutRequestId(wrongPassword.text));
    expect([...wrongEmail.headers.keys()].sort()).to.deep.equal([...wrongPassword.headers.keys()].sort());

    // the unknown e-mail draws from its own bucket exactly as a real account does
    for (let i = 1; i < ACCOUNT_BUCKET.capacity; i++) {
      expect((await t.client.post('/api/session', { email: unknown, password: 'whatever it is' })).status).to.equal(401);
      expect((await t.client.post('/api/session', { email: target.email, password: 'whatever it is' })).status).to.equal(401);
    }
    const a = await t.client.post('/api/session', { email: unknown, password: 'whatever it is' });
    const b = await t.client.post('/api/session', { email: target.email, password: 'whatever it is' });
    expect([a.status, b.status]).to.deep.equal([429, 429]);
    expect(withoutRequestId(a.text)).to.equal(withoutRequestId(b.text));
    expect(a.headers.get('retry-after')).to.equal(b.headers.get('retry-after'));
  });

  it('costs nothing for a successful sign-in (its token is given back)', async () => {
    nextWindow();
    for (let i = 0; i < ACCOUNT_BUCKET.capacity - 1; i++)
      expect((await t.client.post('/api/session', { email: target.email, password: 'nope nope' })).status).to.equal(401);
    // one token left: each success takes it and gives it back
    for (let i = 0; i < 3; i++) expect((await t.client.post('/api/session', { email: target.email, password: target.password })).status).to.equal(201);
    expect((await t.client.post('/api/session', { email: target.email, password: 'nope nope' })).status).to.equal(401);
    expect((await t.client.post('/api/session', { email: target.email, password: target.password })).status).to.equal(429);
  });

  /** Leaves `tokens` in a client address's bucket (what earlier attempts from it would have left). */
  const setAddressTokens = async (db: TestService['testDb']['db'], ip: string, tokens: number) => {
    await db('signin_throttle')
      .insert({
        key: `address:${sha256Hex(ip)}`,
        tokens,
        capacity: ADDRESS_BUCKET.capacity,
        refill_per_second: ADDRESS_BUCKET.refillPerSecond,
        updated_at: clock.now(),
        granted: true,
      })
      .onConflict('key')
      .merge();
  };

  it('limits one client address across accounts', async () => {
    nextWindow();
    await setAddressTokens(t.testDb.db, '127.0.0.9', 3);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await signInFrom(t.service.url, '127.0.0.9', `spray-${i}@example.com`, 'password1')).status);
    expect(statuses).to.deep.equal([401, 401, 401, 429]);
    // another address is not affected
    expect((await signInFrom(t.service.url, '127.0.0.10', bystander.email, bystander.password)).status).to.equal(201);
  });

  it('holds across processes: a second service on the same database draws from the same buckets', async () => {
    nextWindow();
    const config = loadConfig({
      DATABASE_URL: t.testDb.url,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: t.service.deps.config.dataDir,
      LOG_LEVEL: 'silent',
      WORKERS: 'off',
      // The run's store (TEST_EVENT_STORE), as the first service has it: one database, one log.
      ...testEventStoreEnv(t.testDb.url),
    });
    const second: Service = await startService({ config, clock, log: createLogger('silent') });
    try {
      const other = new Client(second.url);
      for (let i = 0; i < ACCOUNT_BUCKET.capacity; i++) {
        const via = i % 2 === 0 ? t.client : other;
        expect((await via.post('/api/session', { email: target.email, password: 'guess' })).status).to.equal(401);
      }
      const first = await t.client.post('/api/session', { email: target.email, password: 'guess' });
      const onSecond = await other.post('/api/session', { email: target.email, password: 'guess' });
      expect([first.status, onSecond.status]).to.deep.equal([429, 429]);
    } finally {
      await second.close();
    }
  });

  it('believes X-Forwarded-For only from TRUST_PROXY', async () => {
    nextWindow();
    const proxied = await startTestService('signin_throttle_proxy', { clock, env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      // behind the proxy, each client has its own address bucket
      await setAddressTokens(proxied.testDb.db, '203.0.113.7', 0);
      const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
      expect((await proxied.client.post('/api/session', { email: 'p1@example.com', password: 'password1' }, from('203.0.113.7'))).status).to.equal(429);
      expect((await proxied.client.post('/api/session', { email: 'p1@example.com', password: 'password1' }, from('203.0.113.8'))).status).to.equal(401);
    } finally {
      await proxied.close();
    }
    // without TRUST_PROXY the header is ignored: attempts are charged to the connection's address
    await setAddressTokens(t.testDb.db, '198.51.100.9', 0);
    expect(
      (await t.client.post('/api/session', { email: 'q1@example.com', password: 'password1' }, { headers: { 'x-forwarded-for': '198.51.100.9' } })).status,
    ).to.equal(401);
    await setAddressTokens(t.testDb.db, '127.0.0.1', 0);
    expect(
      (await t.client.post('/api/session', { email: 'q1@example.com', password: 'password1' }, { headers: { 'x-forwarded-for': '198.51.100.10' } })).status,
    ).to.equal(429);
  });

  it('throttles invite acceptance for an existing user like a sign-in for that e-mail', async () => {
    nextWindow();
    const inv = await t.client.post(
      '/api/members/invites',
      { email: bystander.email, role: 'agent' },
      { cookie: target.cookie, workspace: target.workspaceId },
    );
    expect(inv.status, inv.text).to.equal(201);
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_BUCKET.capacity + 1; i++) {
      statuses.push((await t.client.post('/api/invites/accept', { token: inv.body.token, name: 'B', password: 'not their password' })).status);
    }
    // A wrong password is answered like any acceptance (202: the answer does not say whether the account exists).
    expect(
      statuses.slice(0, ACCOUNT_BUCKET.capacity).every((s) => s === 202),
      JSON.stringify(statuses),
    ).to.equal(true);
    expect(statuses.at(-1)).to.equal(429);
    // the same bucket as signing in
    expect((await t.client.post('/api/session', { email: bystander.email, password: bystander.password })).status).to.equal(429);
  });
});
