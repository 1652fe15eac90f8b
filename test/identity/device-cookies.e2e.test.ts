// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"):
// a browser that signed in successfully is recognised by its `svc_device` cookie,
// and its attempts are throttled per device cookie only, so a burst of wrong
// passwords against an account from one address locks out neither the user's own
// browser nor anyone else signing in from that address with theirs. Everything
// else keeps the per-account and per-address buckets.
import http from 'node:http';
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { ACCOUNT_BUCKET, DEVICE_BUCKET } from '../../src/capabilities/users/throttle.js';
import { DEVICE_TTL_MS, secureUnlessPlainLoopback } from '../../src/capabilities/access/device-cookies.js';
import { BURST_QUIET_MS } from '../../src/capabilities/access/throttle-watch.js';
import { eventually } from '../support/events.js';
import { hashScheduler, holdSlot } from '../support/hash-slots.js';
import { addMember, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

const BURST = 200;

interface Answer {
  status: number;
  text: string;
  body: any;
  retryAfter: string | null;
  setCookies: string[];
}

/** POST /api/session from a chosen local address (127.0.0.0/8 is all loopback), with a chosen cookie header. */
function signInFrom(
  base: string,
  localAddress: string,
  email: string,
  password: string,
  o: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const u = new URL('/api/session', base);
  const payload = JSON.stringify({ email, password });
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...o.headers };
  if (o.cookie) headers.cookie = o.cookie;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', localAddress, agent: false, headers }, (res) => {
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
        resolve({
          status: res.statusCode!,
          text,
          body,
          retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
          setCookies: res.headers['set-cookie'] ?? [],
        });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The `svc_device=…` pair a 201 set (what the browser sends back). */
function deviceOf(a: Answer): string {
  expect(a.status, a.text).to.equal(201);
  const c = a.setCookies.find((s) => s.startsWith('svc_device='));
  expect(c, `a device cookie among ${JSON.stringify(a.setCookies)}`).to.be.a('string');
  return c!.split(';')[0]!;
}

/** The `svc_session=…` pair a 201 set. */
function sessionOf(a: Answer): string {
  expect(a.status, a.text).to.equal(201);
  return a.setCookies.find((s) => s.startsWith('svc_session='))!.split(';')[0]!;
}

/** The same cookie with its signature's last character changed. */
const tampered = (device: string) => device.slice(0, -1) + (device.endsWith('A') ? 'B' : 'A');

function expectThrottled(a: Answer, what: string): void {
  expect(a.status, `${what}: ${a.text}`).to.equal(429);
  expect(a.body.errors[0].code).to.equal('too_many_attempts');
  expect(a.retryAfter, `${what}: Retry-After`).to.match(/^[1-9]\d*$/);
}

describe('device cookies: sign-in that cannot be used to lock people out', function () {
  this.timeout(240_000);
  let t: TestService;
  let clock: ManualClock;
  let a: Member; // the account under attack
  let b: Member; // another user behind the same address
  let base: string;

  before(async () => {
    clock = new ManualClock(new Date());
    // The fixture's cheap hashing cost: the test holds the hashing slots itself (test/support/hash-slots.ts) to watch a
    // sign-in answered while a burst's password checks still queue.
    t = await startTestService('device_cookies', { clock });
    a = await newWorkspace(t, 'Attacked');
    b = await newWorkspace(t, 'Neighbour');
    base = t.service.url;
  });
  after(async () => t.close());

  /** a fresh window: every bucket full again */
  const nextWindow = () => clock.advance(3600_000);

  /** Empties A's account bucket with wrong passwords from `ip` (no device cookie). */
  const drainAccount = async (ip: string) => {
    for (let i = 0; i < ACCOUNT_BUCKET.capacity; i++) expect((await signInFrom(base, ip, a.email, 'wrong password')).status).to.equal(401);
    expectThrottled(await signInFrom(base, ip, a.email, a.password), 'the right password without a device cookie, account drained');
  };

  it(`lets A and B sign in with their device cookies during and after a ${BURST}-attempt burst against A from their address; without one, 429`, async () => {
    nextWindow();
    const aDevice = deviceOf(await signInFrom(base, '127.0.0.11', a.email, a.password));
    const bDevice = deviceOf(await signInFrom(base, '127.0.0.12', b.email, b.password));

    // The test holds both hashing slots, so the burst's checks that pass the account's bucket wait for one: "during
    // the burst" is a state the test sets up, not a race between requests. The rest of the burst (429 before
    // hashing) empties the shared address's bucket.
    const slots = [holdSlot('test holds slot 0'), holdSlot('test holds slot 1')];
    let refused = 0;
    const burst = Array.from({ length: BURST }, () =>
      signInFrom(base, '127.0.0.1', a.email, 'wrong password, attempt').then((x) => {
        if (x.status === 429) refused++;
        return x;
      }),
    );
    await eventually(
      () => ({ waiting: hashScheduler.stats().waiting, refused }),
      (n) => n.waiting === ACCOUNT_BUCKET.capacity && n.refused === BURST - ACCOUNT_BUCKET.capacity,
    );
    // B signs in from the drained address with their device cookie: their check queues beside the burst's, and a
    // third holder behind both. Round robin over lanes: the slot let go runs one of the burst's checks, then B's,
    // then the holder's, which keeps it: the rest of the burst still waits when B's answer comes.
    const bDuringAnswer = signInFrom(base, '127.0.0.1', b.email, b.password, { cookie: bDevice });
    await eventually(
      () => hashScheduler.stats().waiting,
      (w) => w === ACCOUNT_BUCKET.capacity + 1,
    );
    const third = holdSlot('test holds the third turn');
    slots[0]!.release();
    const bDuring = await bDuringAnswer;
    expect(bDuring.status, `B with their device cookie during the burst: ${bDuring.text}`).to.equal(201);
    await eventually(third.started, (started) => started);
    expect(hashScheduler.stats(), "B was answered while the burst's checks still waited").to.include({ waiting: ACCOUNT_BUCKET.capacity - 1 });
    slots[1]!.release();
    third.release();
    await Promise.all([...slots, third].map((h) => h.done));
    const answers = await Promise.all(burst);
    // the burst itself was throttled as before: the account's burst reached the password check, the rest 429
    expect(answers.filter((x) => x.status === 401)).to.have.length(ACCOUNT_BUCKET.capacity);
    expect(answers.filter((x) => x.status === 429)).to.have.length(BURST - ACCOUNT_BUCKET.capacity);

    // right after the burst: A's own browser gets in
    const aAfter = await signInFrom(base, '127.0.0.1', a.email, a.password, { cookie: aDevice });
    expect(aAfter.status, `A with their device cookie after the burst: ${aAfter.text}`).to.equal(201);

    // a client without a device cookie is throttled as before: A's account from anywhere, the address for anyone
    expectThrottled(await signInFrom(base, '127.0.0.1', a.email, a.password), 'A without a device cookie, same address');
    expectThrottled(await signInFrom(base, '127.0.0.13', a.email, a.password), 'A without a device cookie, another address');
    expectThrottled(await signInFrom(base, '127.0.0.1', b.email, b.password), 'B without a device cookie, same address');
  });

  it("gives no advantage to a device cookie for another user's e-mail, a forged, a replaced or an expired one", async () => {
    nextWindow();
    const bDevice = deviceOf(await signInFrom(base, '127.0.0.21', b.email, b.password));
    const replaced = deviceOf(await signInFrom(base, '127.0.0.21', a.email, a.password));
    // signing in with it rotates it: a new cookie, and the old one is no longer a device
    const current = deviceOf(await signInFrom(base, '127.0.0.21', a.email, a.password, { cookie: replaced }));
    expect(current).to.not.equal(replaced);

    await drainAccount('127.0.0.22');
    expectThrottled(await signInFrom(base, '127.0.0.23', a.email, a.password, { cookie: bDevice }), "B's device cookie for A's e-mail");
    expectThrottled(await signInFrom(base, '127.0.0.23', a.email, a.password, { cookie: tampered(current) }), 'a forged device cookie');
    expectThrottled(await signInFrom(base, '127.0.0.23', a.email, a.password, { cookie: replaced }), 'a replaced device cookie');
    // (the account is drained: only the current device cookie gets A in)
    const latest = deviceOf(await signInFrom(base, '127.0.0.23', a.email, a.password, { cookie: current }));

    // a year later the cookie has expired: it is a stranger again
    clock.advance(DEVICE_TTL_MS);
    await drainAccount('127.0.0.24');
    expectThrottled(await signInFrom(base, '127.0.0.25', a.email, a.password, { cookie: latest }), 'an expired device cookie');
  });

  it('locks out a device cookie that fails too often, and that device only', async () => {
    nextWindow();
    const d1 = deviceOf(await signInFrom(base, '127.0.0.31', a.email, a.password));
    const d2 = deviceOf(await signInFrom(base, '127.0.0.32', a.email, a.password));

    const wrong = await Promise.all(Array.from({ length: 100 }, () => signInFrom(base, '127.0.0.31', a.email, 'wrong password', { cookie: d1 })));
    expect(wrong.filter((x) => x.status === 401)).to.have.length(DEVICE_BUCKET.capacity);
    const refused = wrong.filter((x) => x.status === 429);
    expect(refused).to.have.length(100 - DEVICE_BUCKET.capacity);
    for (const x of refused) expectThrottled(x, 'the locked device');
    // the device's bucket refills one attempt a minute: that is what it says to wait
    expect(Math.max(...refused.map((x) => Number(x.retryAfter)))).to.equal(Math.ceil(1 / DEVICE_BUCKET.refillPerSecond));
    expectThrottled(await signInFrom(base, '127.0.0.31', a.email, a.password, { cookie: d1 }), 'the right password from the locked device');

    // A's other browser, and A without a device cookie (the account's bucket was not touched), still sign in
    expect((await signInFrom(base, '127.0.0.31', a.email, a.password, { cookie: d2 })).status, "A's other device").to.equal(201);
    expect((await signInFrom(base, '127.0.0.33', a.email, a.password)).status, 'A without a device cookie').to.equal(201);
  });

  it('sets the device cookie signed, opaque, HttpOnly, SameSite=Lax, long-lived, for the sign-in route, Secure unless plain loopback', async () => {
    nextWindow();
    const r = await signInFrom(base, '127.0.0.41', a.email, a.password);
    expect(r.status, r.text).to.equal(201);
    expect(r.setCookies).to.have.length(2);
    expect(r.setCookies[0]).to.match(/^svc_session=[A-Za-z0-9_-]{43}; /);
    const [pair, ...attributes] = r.setCookies[1]!.split('; ');
    expect(pair).to.match(/^svc_device=v1\.\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    // plain HTTP to a loopback address: no Secure (a browser would drop it there)
    expect(attributes).to.deep.equal(['Path=/api/session', 'HttpOnly', 'SameSite=Lax', `Max-Age=${DEVICE_TTL_MS / 1000}`]);
    expect(DEVICE_TTL_MS).to.be.at.least(180 * 24 * 3600_000);
    // it says nothing about the user
    const user = r.body.user as { id: string; email: string };
    for (const s of [user.id, user.id.replace(/-/g, ''), user.email, Buffer.from(user.email).toString('base64url')]) expect(pair).to.not.include(s);
    // each successful sign-in issues a new one
    const again = await signInFrom(base, '127.0.0.41', a.email, a.password, { cookie: pair });
    expect(deviceOf(again)).to.not.equal(pair);

    // over HTTPS (here: a trusted proxy saying so) it is Secure
    const proxied = await startTestService('device_cookies_proxy', { clock, env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const m = await newWorkspace(proxied, 'Proxied');
      const s = await signInFrom(proxied.service.url, '127.0.0.1', m.email, m.password, { headers: { 'x-forwarded-proto': 'https' } });
      expect(
        s.setCookies
          .find((c) => c.startsWith('svc_device='))!
          .split('; ')
          .slice(1),
      ).to.deep.equal(['Path=/api/session', 'HttpOnly', 'SameSite=Lax', `Max-Age=${DEVICE_TTL_MS / 1000}`, 'Secure']);
    } finally {
      await proxied.close();
    }
    // and so is plain HTTP to any address but loopback (the decision the route makes from req.secure and the
    // connection's local address; a test has only loopback to connect to)
    for (const local of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
      expect(secureUnlessPlainLoopback(false, local), `plain HTTP to ${local}`).to.equal(false);
      expect(secureUnlessPlainLoopback(true, local), `HTTPS to ${local}`).to.equal(true);
    }
    for (const local of ['10.0.0.1', '192.168.1.2', '::ffff:10.0.0.1', 'fe80::1', '2001:db8::1', undefined]) {
      expect(secureUnlessPlainLoopback(false, local), `plain HTTP to ${local}`).to.equal(true);
    }
  });
  /** The audit log entries of `action` in A's workspace, as A's owner session sees them. */
  const auditOf = async (session: string, workspace: string, query: string) => {
    const r = await t.client.get(`/api/audit_log?per_page=150&${query}`, { cookie: session, workspace });
    expect(r.status, r.text).to.equal(200);
    return r.body.data as { action: string; aggregate_id: string; actor: { type: string; id: string; member_id: string | null }; ip: string | null }[];
  };

  it('keeps the device on sign-out; DELETE /api/me/devices voids every device cookie issued so far (429 where it was 201), and a later one counts again', async () => {
    nextWindow();
    const first = await signInFrom(base, '127.0.0.51', a.email, a.password);
    const device1 = deviceOf(first);
    // Signing out ends the session, not the device.
    const out = await t.client.delete('/api/session', { cookie: `${sessionOf(first)}; ${device1}` });
    expect(out.status).to.equal(204);
    expect(out.headers.get('set-cookie')).to.match(/^svc_session=;/);
    await drainAccount('127.0.0.52');
    const during = await signInFrom(base, '127.0.0.52', a.email, a.password, { cookie: device1 });
    expect(during.status, `before the revocation, A's device cookie gets A in during the burst: ${during.text}`).to.equal(201);
    const device2 = deviceOf(during);

    const revoked = await t.client.delete('/api/me/devices', {
      cookie: sessionOf(during),
      workspace: a.workspaceId,
      headers: { 'x-request-id': 'revoke-own' },
    });
    expect(revoked.status, revoked.text).to.equal(204);
    expectThrottled(await signInFrom(base, '127.0.0.52', a.email, a.password, { cookie: device2 }), 'the device cookie issued before the revocation');
    // the session is not ended by it, and the workspace's audit log has it
    const entries = await auditOf(sessionOf(during), a.workspaceId, 'action=devices.revoked');
    expect(entries.map((e) => ({ aggregate: e.aggregate_id, actor: e.actor.type, ip: e.ip }))).to.deep.equal([
      { aggregate: a.memberId, actor: 'member', ip: '127.0.0.1' },
    ]);

    // a sign-in after the revocation issues a device cookie that counts again
    clock.advance(1000);
    nextWindow();
    const device3 = deviceOf(await signInFrom(base, '127.0.0.53', a.email, a.password));
    await drainAccount('127.0.0.54');
    expect((await signInFrom(base, '127.0.0.54', a.email, a.password, { cookie: device3 })).status, 'a device cookie issued after the revocation').to.equal(
      201,
    );
  });

  it("lets an owner revoke a member's devices (DELETE /api/members/{id}/devices); an agent or an admin cannot revoke another's (403)", async () => {
    nextWindow();
    const ownerSession = sessionOf(await signInFrom(base, '127.0.0.61', a.email, a.password));
    const owner = { ...a, cookie: ownerSession };
    const member = await addMember(t, owner, 'agent');
    const admin = await addMember(t, owner, 'admin');
    const as = (m: { cookie: string }) => ({ cookie: m.cookie, workspace: a.workspaceId });
    const memberDevice = deviceOf(await signInFrom(base, '127.0.0.62', member.email, member.password));
    for (let i = 0; i < ACCOUNT_BUCKET.capacity; i++) expect((await signInFrom(base, '127.0.0.63', member.email, 'wrong password')).status).to.equal(401);
    expectThrottled(await signInFrom(base, '127.0.0.63', member.email, member.password), "the member's account, drained");

    const byAgent = await t.client.delete(`/api/members/${admin.memberId}/devices`, as(member));
    expect(byAgent.status, byAgent.text).to.equal(403);
    expect(byAgent.body.errors[0].code).to.equal('missing_scope');
    const byAdmin = await t.client.delete(`/api/members/${member.memberId}/devices`, as(admin));
    expect(byAdmin.status, byAdmin.text).to.equal(403);
    expect(byAdmin.body.errors[0].code).to.equal('owner_required');
    // nothing was revoked: the member's device still gets them in
    const still = await signInFrom(base, '127.0.0.62', member.email, member.password, { cookie: memberDevice });
    expect(still.status, `the member's device after refused revocations: ${still.text}`).to.equal(201);

    const byOwner = await t.client.delete(`/api/members/${member.memberId}/devices`, as(owner));
    expect(byOwner.status, byOwner.text).to.equal(204);
    expectThrottled(
      await signInFrom(base, '127.0.0.62', member.email, member.password, { cookie: deviceOf(still) }),
      "the member's device after the owner revoked it",
    );
    // another workspace's member, a removed one or a malformed id: 404
    for (const id of [b.memberId, 'not-a-member']) {
      const r = await t.client.delete(`/api/members/${id}/devices`, as(owner));
      expect(r.status, r.text).to.equal(404);
    }
    const entries = await auditOf(ownerSession, a.workspaceId, `action=devices.revoked&aggregate_id=${member.memberId}`);
    expect(entries.map((e) => e.actor)).to.deep.equal([{ type: 'member', id: a.memberId, member_id: a.memberId }]);
  });

  it("records a throttled burst once, with its addresses: in the audit log of the member's workspace, in the log and in /metrics", async () => {
    nextWindow();
    const ownerSession = sessionOf(await signInFrom(base, '127.0.0.71', a.email, a.password));
    const metric = async (name: string) => {
      const text = (await t.client.get('/metrics')).text;
      const line = text.split('\n').find((l) => l.startsWith(name + ' ') || l.startsWith(name + '{'));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    };
    const refusedBefore = await metric('service_signin_throttled_total{bucket="account"}');
    const burstsBefore = await metric('service_signin_throttle_bursts_total');

    const burst = await Promise.all(Array.from({ length: 40 }, () => signInFrom(base, '127.0.0.72', a.email, 'wrong password')));
    expect(burst.filter((x) => x.status === 429)).to.have.length(40 - ACCOUNT_BUCKET.capacity);
    for (let i = 0; i < 5; i++) expectThrottled(await signInFrom(base, '127.0.0.73', a.email, 'wrong password'), 'the burst from a second address');

    // one entry per address, not per attempt
    const ours = <E extends { ip: string | null }>(es: E[]) => es.filter((e) => e.ip === '127.0.0.72' || e.ip === '127.0.0.73');
    const entries = await eventually(
      async () => ours(await auditOf(ownerSession, a.workspaceId, `action=session.throttled&aggregate_id=${a.memberId}`)),
      (es) => es.length >= 2,
    );
    expect(entries.map((e) => e.ip).sort()).to.deep.equal(['127.0.0.72', '127.0.0.73']);
    expect(entries.every((e) => e.actor.type === 'system' && e.actor.id === 'sign_in_throttle')).to.equal(true);

    expect((await metric('service_signin_throttled_total{bucket="account"}')) - refusedBefore).to.equal(40 - ACCOUNT_BUCKET.capacity + 5);
    expect((await metric('service_signin_throttle_bursts_total')) - burstsBefore).to.equal(1);

    const lines = () =>
      t.logs
        .flatMap((chunk) => chunk.split('\n'))
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const userId = (await t.client.get('/api/me', { cookie: ownerSession, workspace: a.workspaceId })).body.user.id;
    const started = await eventually(
      () => lines().filter((l) => l.msg === 'sign-in throttled: a burst started' && (l.addresses as string[]).includes('127.0.0.72')),
      (ls) => ls.length > 0,
    );
    expect(started).to.have.length(1);
    expect(started[0]).to.include({ user_id: userId });
    expect(JSON.stringify(started[0])).to.not.include(a.email);
    // Once the account has been quiet for a minute, the burst is summed up (at the next refusal anyone gets, or the sweep).
    clock.advance(BURST_QUIET_MS + 1000);
    for (let i = 0; i <= ACCOUNT_BUCKET.capacity; i++) await signInFrom(base, '127.0.0.74', 'nobody-at-all@example.com', 'wrong password');
    const ended = await eventually(
      () => lines().filter((l) => l.msg === 'sign-in throttled: a burst ended' && l.user_id === userId && (l.addresses as string[]).includes('127.0.0.73')),
      (ls) => ls.length > 0,
    );
    expect(ended[0]).to.deep.include({ refused: 40 - ACCOUNT_BUCKET.capacity + 5, addresses: ['127.0.0.72', '127.0.0.73'], buckets: ['account'] });
  });
});
