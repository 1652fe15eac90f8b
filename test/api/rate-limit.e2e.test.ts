// API rate limits, end to end: per key (or signed-in member), per workspace,
// the workspace's expensive routes, and the signed inbound route's per-channel
// limit; the RateLimit fields on every answer of an authenticated route; what
// is exempt; and the limit holding across two service processes on one database.
//
// The in-process service runs on a manual clock, so a window only ends when a
// test moves it: each test starts in a fresh window of its own.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { createTestDb, type TestDb } from '../support/db.js';
import type { Reply } from '../support/http.js';
import { childEnv, runCli, spawnService, type ServiceProcess } from '../support/process.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

const WINDOW_S = 60;
const LIMITS = {
  RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_S),
  RATE_LIMIT_KEY: '3',
  RATE_LIMIT_WORKSPACE: '6',
  RATE_LIMIT_EXPENSIVE: '2',
  RATE_LIMIT_CHANNEL: '2',
};

/** `"name";a=1;b=2, …` → { name: { a: 1, b: 2 } } */
function items(field: string | null): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const item of (field ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, ...params] = item.split(';');
    out[JSON.parse(name!) as string] = Object.fromEntries(params.map((p) => p.split('=')).map(([k, v]) => [k!, Number(v)]));
  }
  return out;
}
const limitsOf = (r: Reply) => items(r.headers.get('ratelimit'));
const policiesOf = (r: Reply) => items(r.headers.get('ratelimit-policy'));

function expectLimited(r: Reply, policy: string, windowS = WINDOW_S): void {
  expect(r.status, r.text).to.equal(429);
  expect(r.body.type).to.equal('error.list');
  expect(r.body.errors[0].code).to.equal('rate_limited');
  expect(r.body.errors[0].message).to.include(`"${policy}"`);
  const left = limitsOf(r)[policy]!;
  expect(left.r).to.equal(0);
  expect(Number(r.headers.get('retry-after')))
    .to.equal(left.t)
    .and.to.be.within(1, windowS);
}

describe('API rate limits', function () {
  this.timeout(120_000);
  let t: TestService;
  let clock: ManualClock;
  let a: Member;
  let b: Member;
  let a1: string;
  let a2: string;
  let b1: string;
  let narrow: string;
  let channels: { id: string; secret: string }[];
  const nextWindow = () => clock.advance(WINDOW_S * 1000);

  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('rate-limit', { clock, env: LIMITS });
    a = await newWorkspace(t, 'Limited A');
    b = await newWorkspace(t, 'Limited B');
    const scopes = ['conversations:read', 'conversations:write', 'events:read', 'settings:write', 'contacts:read'];
    a1 = (await mintKey(t, a, scopes, 'a1')).secret;
    a2 = (await mintKey(t, a, scopes, 'a2')).secret;
    nextWindow();
    narrow = (await mintKey(t, a, ['events:read'], 'narrow')).secret;
    b1 = (await mintKey(t, b, scopes, 'b1')).secret;
    nextWindow();
    channels = [await createChannel(t, a, { name: 'Bridge 1' }), await createChannel(t, a, { name: 'Bridge 2' })];
  });
  after(() => t?.close());
  beforeEach(() => nextWindow());

  it('refuses a key over its limit with 429 rate_limited and Retry-After, while another key of the workspace and another workspace go on', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await t.client.get('/api/conversations', { key: a1 });
      expect(r.status, r.text).to.equal(200);
      expect(limitsOf(r).key!.r).to.equal(2 - i);
    }
    const over = await t.client.get('/api/conversations', { key: a1 });
    expectLimited(over, 'key');
    expect(policiesOf(over)).to.deep.equal({ key: { q: 3, w: WINDOW_S }, workspace: { q: 6, w: WINDOW_S } });
    expectLimited(await t.client.get('/api/tags', { key: a1 }), 'key');

    const same = await t.client.get('/api/conversations', { key: a2 });
    expect(same.status, same.text).to.equal(200);
    expect(limitsOf(same).key!.r).to.equal(2);
    expect(limitsOf(same).workspace!.r).to.equal(2); // 6 − a1's three − a2's one: refusals spent nothing
    const other = await t.client.get('/api/conversations', { key: b1 });
    expect(other.status, other.text).to.equal(200);
    expect(limitsOf(other).workspace!.r).to.equal(5);
  });

  it('counts a member signed in with a cookie like a key of their own', async () => {
    const session = { cookie: a.cookie, workspace: a.workspaceId };
    for (let i = 0; i < 3; i++) expect((await t.client.get('/api/conversations', session)).status).to.equal(200);
    expectLimited(await t.client.get('/api/conversations', session), 'key');
    expect((await t.client.get('/api/conversations', { key: a1 })).status).to.equal(200);
  });

  it("holds the workspace's limit across its keys and members", async () => {
    const callers = [{ key: a1 }, { key: a2 }, { cookie: a.cookie, workspace: a.workspaceId }];
    for (const c of [...callers, ...callers]) expect((await t.client.get('/api/conversations', c)).status).to.equal(200);
    // Each caller has used two of its three: the workspace's six are what is gone.
    const over = await t.client.get('/api/conversations', { key: a1 });
    expectLimited(over, 'workspace');
    expect(limitsOf(over).key!.r).to.equal(1);
    expectLimited(await t.client.get('/api/events?after_seq=0', { key: narrow }), 'workspace');
    expect((await t.client.get('/api/conversations', { key: b1 })).status).to.equal(200);
  });

  it('limits the expensive routes (searches, exports) on their own, below the others', async () => {
    const search = () => t.client.post('/api/conversations/search', { query: { field: 'state', operator: '=', value: 'open' } }, { key: a1 });
    for (let i = 0; i < 2; i++) {
      const r = await search();
      expect(r.status, r.text).to.equal(200);
      expect(policiesOf(r).expensive).to.deep.equal({ q: 2, w: WINDOW_S });
    }
    const over = await search();
    expectLimited(over, 'expensive');
    expect(limitsOf(over).key!.r).to.equal(1);
    // The same key's ordinary reads still have their own budget.
    const list = await t.client.get('/api/conversations', { key: a1 });
    expect(list.status, list.text).to.equal(200);
    expect(policiesOf(list)).to.not.have.property('expensive');
  });

  it('changes nothing when it refuses a write, and uses no Idempotency-Key', async () => {
    const feed = async () => (await t.client.get('/api/events?after_seq=0&per_page=150', { key: b1 })).body;
    const before = await feed();
    for (let i = 0; i < 2; i++) expect((await t.client.get('/api/tags', { key: b1 })).status).to.equal(200);
    const refused = await t.client.post('/api/tags', { name: 'limited-tag' }, { key: b1, headers: { 'Idempotency-Key': 'tag-once' } });
    expectLimited(refused, 'key');
    expect(await t.testDb.db('idempotency_keys').where({ key: 'tag-once' })).to.deep.equal([]);
    nextWindow();
    expect(await feed()).to.deep.equal(before);
    const made = await t.client.post('/api/tags', { name: 'limited-tag' }, { key: b1, headers: { 'Idempotency-Key': 'tag-once' } });
    expect(made.status, made.text).to.equal(201);
    expect(made.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('puts the RateLimit fields on every answer of an authenticated route: 200, 201, 400, 403, 404, 422, 429', async () => {
    const answers: Reply[] = [
      await t.client.get('/api/conversations', { key: a1 }),
      await t.client.post('/api/tags', { name: `tag-${Date.now()}` }, { key: a2, headers: { 'Idempotency-Key': 'fields-1' } }),
      await t.client.post('/api/tags', {}, { key: a1 }),
      await t.client.post('/api/tags', undefined, { key: a2, raw: '{"name":' }),
      await t.client.get('/api/conversations', { key: narrow }),
      await t.client.get('/api/conversations/00000000-0000-4000-8000-000000000000', { key: a1 }),
    ];
    nextWindow(); // the workspace's six are spent
    answers.push(await t.client.post('/api/tags', { name: 'other' }, { key: a2, headers: { 'Idempotency-Key': 'fields-1' } }));
    for (let i = 0; i < 3; i++) await t.client.get('/api/conversations', { key: a1 });
    answers.push(await t.client.get('/api/conversations', { key: a1 }));
    expect(answers.map((r) => r.status)).to.deep.equal([200, 201, 400, 400, 403, 404, 422, 429]);
    for (const r of answers) {
      expect(Object.keys(policiesOf(r)), `${r.status} ${r.text}`).to.deep.equal(['key', 'workspace']);
      expect(Object.keys(limitsOf(r)), `${r.status} ${r.text}`).to.deep.equal(['key', 'workspace']);
    }
    expect(answers[3]!.body.errors[0].code).to.equal('invalid_json');
  });

  it('leaves health, readiness, metrics, the docs, sign-in and unauthenticated answers without limits or fields', async () => {
    for (let i = 0; i < 8; i++) {
      for (const p of ['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs']) {
        const r = await fetch(`${t.service.url}${p}`);
        expect(r.status, p).to.equal(200);
        expect(r.headers.get('ratelimit'), p).to.equal(null);
      }
    }
    const bad = await t.client.get('/api/conversations', { key: 'svc_00000000000000000000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(bad.status).to.equal(401);
    expect(bad.headers.get('ratelimit')).to.equal(null);
    const signIn = await t.client.post('/api/session', { email: a.email, password: 'wrong password' });
    expect(signIn.status).to.equal(401);
    expect(signIn.headers.get('ratelimit')).to.equal(null);
  });

  it('limits the signed inbound route per channel, counting only posts whose signature verifies; another channel goes on', async () => {
    const [one, two] = channels as [{ id: string; secret: string }, { id: string; secret: string }];
    // Unsigned posts cannot spend the bridge's budget, and still get the empty 401.
    for (let i = 0; i < 3; i++) {
      const forged = await postInbound(t, one.id, 'not the secret', inboundBody());
      expect([forged.status, forged.text, forged.headers.get('ratelimit')]).to.deep.equal([401, '', null]);
    }
    for (let i = 0; i < 2; i++) {
      const r = await postInbound(t, one.id, one.secret, inboundBody());
      expect(r.status, r.text).to.equal(201);
      expect(policiesOf(r)).to.deep.equal({ channel: { q: 2, w: WINDOW_S } });
      expect(limitsOf(r).channel!.r).to.equal(1 - i);
    }
    const head = await t.service.deps.store.head(a.workspaceId);
    expectLimited(await postInbound(t, one.id, one.secret, inboundBody()), 'channel');
    expect(await t.service.deps.store.head(a.workspaceId)).to.equal(head);
    expect((await postInbound(t, two.id, two.secret, inboundBody())).status).to.equal(201);
  });

  it('counts limited requests by workspace and route class in /metrics', async () => {
    const text = await (await fetch(`${t.service.url}/metrics`)).text();
    const count = (cls: string, ws = a.workspaceId) =>
      Number(new RegExp(`^service_rate_limited_total\\{workspace="${ws}",class="${cls}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    expect(count('read')).to.be.greaterThan(0);
    expect(count('expensive')).to.equal(1);
    expect(count('channel')).to.equal(1);
    expect(count('write', b.workspaceId)).to.equal(1);
  });

  it('deletes the windows that ended, and keeps the current ones', async () => {
    const windows = async () => (await t.testDb.db('rate_limit_windows').select('window_end')) as { window_end: Date }[];
    expect((await windows()).length, 'windows of the tests before').to.be.greaterThan(5);
    clock.advance(2 * WINDOW_S * 1000 + 1000); // every window so far ended over a minute ago (the sweeper keeps one a minute)
    expect((await t.client.get('/api/conversations', { key: a1 })).status).to.equal(200);
    const sweeper = t.service.workers.find((w) => w.name === 'rate-limit-sweeper') as unknown as { sweep(): Promise<number> };
    expect(await sweeper.sweep()).to.be.greaterThan(5);
    const left = await windows();
    expect(left.length, 'the current windows of a1 and its workspace').to.equal(2);
    expect(left.every((w) => w.window_end.getTime() > clock.now().getTime())).to.equal(true);
  });
});

describe('API rate limits across two service processes on one database', function () {
  this.timeout(240_000);
  const QUOTA = 20;
  const WINDOW = 3600;
  let testDb: TestDb;
  let dataDir: string;
  const started: ServiceProcess[] = [];

  before(async () => {
    testDb = await createTestDb('rate_limit_procs', { checkEvents: true });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cs-ratelimit-'));
  });
  after(async () => {
    for (const s of started) {
      s.kill('SIGTERM');
      await s.exited;
    }
    await testDb?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('never accepts more than the limit in total, whichever process each request reaches', async () => {
    const env = { DATABASE_URL: testDb.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    const email = 'owner@limits.example.com';
    const ws = await runCli(['workspace', 'create', '--name', 'Two Procs', '--owner-email', email, '--owner-password', 'correct horse battery'], childEnv(env));
    expect(ws.exit.code, ws.stderr).to.equal(0);
    const key = await runCli(
      ['keys', 'create', '--workspace', ws.json.workspace_id, '--member-email', email, '--name', 'both', '--scopes', 'conversations:read'],
      childEnv(env),
    );
    expect(key.exit.code, key.stderr).to.equal(0);
    const limits = { RATE_LIMIT_WINDOW_SECONDS: String(WINDOW), RATE_LIMIT_KEY: String(QUOTA), WORKERS: 'off' };
    for (let i = 0; i < 2; i++) started.push(await spawnService({ ...env, ...limits }));

    // Waves of concurrent reads at both processes, until each has refused a few.
    const accepted: { process: number; windowEnd: number }[] = [];
    const refused = [0, 0];
    for (let wave = 0; wave < 12 && refused.some((n) => n < 3); wave++) {
      await Promise.all(
        started.flatMap((s, i) =>
          Array.from({ length: 4 }, async () => {
            const r = await s.client.get('/api/conversations', { key: key.json.secret });
            const t = limitsOf(r).key?.t;
            expect(t, `${r.status} ${r.text}`).to.be.a('number');
            if (r.status === 200) {
              // The window this answer counted in: they start at multiples of WINDOW since the epoch.
              accepted.push({ process: i, windowEnd: Math.round((Date.now() + t! * 1000) / (WINDOW * 1000)) });
            } else {
              expectLimited(r, 'key', WINDOW);
              refused[i]!++;
            }
          }),
        ),
      );
    }
    const perWindow = new Map<number, number>();
    for (const x of accepted) perWindow.set(x.windowEnd, (perWindow.get(x.windowEnd) ?? 0) + 1);
    for (const [w, n] of perWindow) expect(n, `accepted in the window ending at ${w * WINDOW}`).to.be.at.most(QUOTA);
    expect(accepted.length, 'both processes together used the whole quota').to.be.at.least(QUOTA);
    expect(new Set(accepted.map((x) => x.process)).size, 'both processes accepted some').to.equal(2);
    expect(
      refused.every((n) => n > 0),
      `refusals per process: ${refused.join(', ')}`,
    ).to.equal(true);
    const rows = (await testDb.db('rate_limit_windows').where('key', 'like', 'key:%').select('used')) as { used: number }[];
    expect(rows.length).to.be.greaterThan(0);
    for (const row of rows) expect(row.used).to.be.at.most(QUOTA);
  });
});
