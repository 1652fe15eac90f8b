// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"):
// a browser that signed in successfully is recognised by its `svc_device` cookie,
// and its attempts are throttled per device cookie only, so a burst of wrong
// passwords against an account from one address locks out neither the user's own
// browser nor anyone else signing in from that address with theirs. Everything
// else keeps the per-account and per-address buckets.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { ACCOUNT_BUCKET, ADDRESS_BUCKET, DEVICE_BUCKET } from '../../src/capabilities/users/throttle.js';
import { DEVICE_TTL_MS, secureUnlessPlainLoopback } from '../../src/capabilities/access/device-cookies.js';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

const BURST = 200;

interface Answer {
  status: number;
  text: string;
  body: any;
  retryAfter: string | null;
  setCookies: string[];
  at: number;
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
          at: performance.now(),
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

/** The same cookie with its signature's last character changed. */
const tampered = (device: string) => device.slice(0, -1) + (device.endsWith('A') ? 'B' : 'A');

function expectThrottled(a: Answer, what: string): void {
  expect(a.status, `${what}: ${a.text}`).to.equal(429);
  expect(a.body.errors[0].code).to.equal('too_many_attempts');
  expect(a.retryAfter, `${what}: Retry-After`).to.match(/^[1-9]\d*$/);
}

describe('device cookies: sign-in that cannot be used to lock people out', function () {
  this.timeout(120_000);
  let t: TestService;
  let clock: ManualClock;
  let a: Member; // the account under attack
  let b: Member; // another user behind the same address
  let base: string;

  before(async () => {
    clock = new ManualClock(new Date());
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

    // The shared address's bucket is empty once more than its capacity of the burst has been answered.
    let answered = 0;
    let addressDrained!: () => void;
    const drained = new Promise<void>((resolve) => (addressDrained = resolve));
    const burst = Array.from({ length: BURST }, () =>
      signInFrom(base, '127.0.0.1', a.email, 'wrong password, attempt').then((x) => {
        if (++answered === ADDRESS_BUCKET.capacity + 1) addressDrained();
        return x;
      }),
    );
    await drained;
    const bDuring = await signInFrom(base, '127.0.0.1', b.email, b.password, { cookie: bDevice });
    const answers = await Promise.all(burst);
    expect(bDuring.status, `B with their device cookie during the burst: ${bDuring.text}`).to.equal(201);
    expect(bDuring.at, 'B answered while the burst was still being answered').to.be.below(Math.max(...answers.map((x) => x.at)));
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
});
