// The rate limiter's token leasing, against an in-memory store with the
// semantics of the Postgres one (grants min(block, quota − used), never counts
// past the quota): processes sharing a store never admit more than the quota
// together, a refused request spends nothing, and a busy budget asks the store
// once per block, not once per request.
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import {
  MAX_BLOCK,
  nextBlock,
  RateLimiter,
  type Budget,
  type Policy,
  type TakeRequest,
  type Taken,
  type WindowStore,
} from '../../src/api/rate-limit/limiter.js';
import { RateLimited, RateLimits, rateClassOf } from '../../src/api/rate-limit/rate-limits.js';
import type { Principal } from '../../src/api/context.js';
import { ConfigError, loadConfig } from '../../src/config.js';

class MemoryWindows implements WindowStore {
  readonly rows = new Map<string, { used: number; quota: number }>();
  takes = 0;
  /** resolved by the test to let a take through, when it holds them */
  gate: Promise<void> | null = null;

  async take(requests: TakeRequest[]): Promise<Taken[]> {
    this.takes++;
    await Promise.resolve(); // a take is never synchronous: requests interleave around it
    if (this.gate) await this.gate;
    const out: Taken[] = [];
    for (const r of requests) {
      const id = `${r.key}@${r.windowStart.toISOString()}`;
      const row = this.rows.get(id) ?? { used: 0, quota: r.quota };
      if (row.used >= r.quota) continue; // used up: left out, as the SQL's WHERE leaves it out
      const granted = Math.min(r.block, r.quota - row.used);
      row.used += granted;
      this.rows.set(id, row);
      out.push({ key: r.key, used: row.used, granted });
    }
    return out;
  }

  usedOf(key: string): number {
    return [...this.rows].filter(([id]) => id.startsWith(`${key}@`)).reduce((n, [, r]) => n + r.used, 0);
  }
}

const policy = (name: string, quota: number, windowSeconds = 60): Policy => ({ name, quota, windowSeconds });
const START = '2026-03-02T10:00:00.000Z'; // a window boundary for any window dividing an hour

describe('rate limiter: token leasing (unit)', () => {
  it('admits exactly the quota in a window, then refuses until the window ends (Retry-After: the seconds left)', async () => {
    const clock = new ManualClock(START);
    clock.advance(15_000);
    const limiter = new RateLimiter(new MemoryWindows(), clock);
    const budget: Budget = { policy: policy('key', 5), subject: 'k1' };
    const verdicts = [];
    for (let i = 0; i < 7; i++) verdicts.push(await limiter.acquire([budget]));
    expect(verdicts.map((v) => v.allowed)).to.deep.equal([true, true, true, true, true, false, false]);
    expect(verdicts.slice(0, 5).map((v) => v.limits[0]!.remaining)).to.deep.equal([4, 3, 2, 1, 0]);
    const refused = verdicts[5]!;
    expect(refused.allowed).to.equal(false);
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).to.equal(45);
    expect(refused.exceeded.map((p) => p.name)).to.deep.equal(['key']);
    expect(refused.limits[0]).to.deep.include({ remaining: 0, resetSeconds: 45 });

    clock.advance(45_000); // the next window
    expect((await limiter.acquire([budget])).allowed).to.equal(true);
  });

  it('never admits more than the quota across processes sharing the store, and admits all of it when every process keeps asking', async () => {
    for (const quota of [1, 7, 100, 1000, 5000]) {
      const store = new MemoryWindows();
      const clock = new ManualClock(START);
      const processes = [0, 1, 2].map(() => new RateLimiter(store, clock));
      const budget: Budget = { policy: policy('workspace', quota), subject: 'w1' };
      let admitted = 0;
      const refusedBy = new Set<number>();
      // Each process sends requests in waves of concurrent ones until it is refused once; waves interleave.
      let round = 0;
      while (refusedBy.size < processes.length && round++ < 10_000) {
        await Promise.all(
          processes.map(async (p, i) => {
            if (refusedBy.has(i)) return;
            const wave = await Promise.all(Array.from({ length: 1 + ((round + i) % 5) }, () => p.acquire([budget])));
            admitted += wave.filter((v) => v.allowed).length;
            if (wave.some((v) => !v.allowed)) refusedBy.add(i);
          }),
        );
      }
      expect(store.usedOf('workspace:w1'), `quota ${quota}: counted`).to.be.at.most(quota);
      expect(admitted, `quota ${quota}: admitted`).to.be.at.most(quota);
      // A process is refused only once its own units are spent and the store has none left: none were stranded.
      expect(admitted, `quota ${quota}: admitted`).to.equal(quota);
    }
  });

  it('refuses without spending: a used-up budget leaves the others of the request untouched', async () => {
    const store = new MemoryWindows();
    const limiter = new RateLimiter(store, new ManualClock(START));
    const key: Budget = { policy: policy('key', 2), subject: 'k1' };
    const workspace: Budget = { policy: policy('workspace', 100), subject: 'w1' };
    for (let i = 0; i < 2; i++) expect((await limiter.acquire([key, workspace])).allowed).to.equal(true);
    const before = (await limiter.acquire([{ policy: workspace.policy, subject: 'w1' }])).limits[0]!.remaining;
    for (let i = 0; i < 5; i++) {
      const v = await limiter.acquire([key, workspace]);
      expect(v.allowed).to.equal(false);
      expect(v.limits[1]!.remaining).to.equal(before);
    }
  });

  it('asks the store once per block for a busy budget, and one take serves every request waiting for it', async () => {
    const store = new MemoryWindows();
    const limiter = new RateLimiter(store, new ManualClock(START));
    const budget: Budget = { policy: policy('key', 1_000_000), subject: 'busy' };
    for (let i = 0; i < 10_000; i++) expect((await limiter.acquire([budget])).allowed).to.equal(true);
    // The block doubles from 1 to MAX_BLOCK (9 takes), then one take per MAX_BLOCK requests.
    expect(store.takes).to.be.at.most(9 + Math.ceil(10_000 / MAX_BLOCK) + 1);

    const fresh = new MemoryWindows();
    let release!: () => void;
    fresh.gate = new Promise<void>((r) => (release = r));
    const other = new RateLimiter(fresh, new ManualClock(START));
    const waiting = Array.from({ length: 20 }, () => other.acquire([{ policy: policy('key', 1000), subject: 'cold' }]));
    await new Promise((r) => setImmediate(r));
    expect(fresh.takes).to.equal(1); // twenty requests, one take in flight
    release();
    fresh.gate = null;
    expect((await Promise.all(waiting)).every((v) => v.allowed)).to.equal(true);
  });

  it("spends a costly request's units at once or none of them, asks the store for what it lacks in one take, and lets a cost above the quota take a whole window", async () => {
    const store = new MemoryWindows();
    const clock = new ManualClock(START);
    const limiter = new RateLimiter(store, clock);
    const expensive = policy('expensive', 600);
    const verdict = await limiter.acquire([{ policy: expensive, subject: 'w1', cost: 126 }]);
    expect(verdict.allowed).to.equal(true);
    expect(verdict.limits[0]!.remaining).to.equal(600 - 126);
    // One take for the request (not the blocks' 1, 2, 4, … 64, one after the other) and the usual prefetch after it.
    expect(store.takes).to.equal(2);
    // Too little left: refused, and what was left is still spendable.
    const small = policy('expensive', 10);
    expect((await limiter.acquire([{ policy: small, subject: 'w2', cost: 8 }])).allowed).to.equal(true);
    const refused = await limiter.acquire([{ policy: small, subject: 'w2', cost: 3 }]);
    expect(refused.allowed).to.equal(false);
    expect(refused.limits[0]!.remaining).to.equal(2);
    expect((await limiter.acquire([{ policy: small, subject: 'w2', cost: 2 }])).allowed).to.equal(true);
    // Above the quota: the whole of a fresh window, not refused for ever.
    clock.advance(60_000);
    const whole = await limiter.acquire([{ policy: small, subject: 'w2', cost: 50 }]);
    expect(whole.allowed).to.equal(true);
    expect(whole.limits[0]!.remaining).to.equal(0);
  });

  it('takes blocks that double while busy, never above an eighth of what the window has left, at least one', () => {
    expect(nextBlock({ block: 0, quota: 10_000, used: 0 })).to.equal(1);
    expect(nextBlock({ block: 8, quota: 10_000, used: 0 })).to.equal(16);
    expect(nextBlock({ block: MAX_BLOCK, quota: 10_000, used: 0 })).to.equal(MAX_BLOCK);
    expect(nextBlock({ block: MAX_BLOCK, quota: 10_000, used: 9_200 })).to.equal(100);
    expect(nextBlock({ block: 64, quota: 10_000, used: 9_990 })).to.equal(1);
    expect(nextBlock({ block: 64, quota: 3, used: 0 })).to.equal(1);
  });
});

describe('rate limits: policies and the RateLimit fields (unit)', () => {
  const settings = { windowSeconds: 60, key: 3, workspace: 10, expensive: 2, channel: 4 };
  const principal = (callerId: string, tenantId = 'w1') => ({ callerId, tenantId }) as Principal;

  it('names every policy a request draws from, in both fields, in the draft syntax', async () => {
    const clock = new ManualClock(START);
    clock.advance(19_000);
    const limits = new RateLimits(new RateLimiter(new MemoryWindows(), clock), settings);
    expect(await limits.forCaller(principal('k1'), 'read')).to.deep.equal({
      'RateLimit-Policy': '"key";q=3;w=60, "workspace";q=10;w=60',
      RateLimit: '"key";r=2;t=41, "workspace";r=9;t=41',
    });
    expect(await limits.forCaller(principal('k1'), 'expensive')).to.deep.equal({
      'RateLimit-Policy': '"key";q=3;w=60, "workspace";q=10;w=60, "expensive";q=2;w=60',
      RateLimit: '"key";r=1;t=41, "workspace";r=8;t=41, "expensive";r=1;t=41',
    });
    expect(await limits.forChannel('w1', 'c1')).to.deep.equal({ 'RateLimit-Policy': '"channel";q=4;w=60', RateLimit: '"channel";r=3;t=41' });
  });

  it('refuses with 429 rate_limited carrying Retry-After and the fields, and tells the observer the workspace and class', async () => {
    const seen: string[] = [];
    const limits = new RateLimits(new RateLimiter(new MemoryWindows(), new ManualClock(START)), settings, {
      limited: (w, c) => seen.push(`${w}/${c}`),
    });
    await limits.forCaller(principal('k1'), 'write');
    await limits.forCaller(principal('k1'), 'write');
    await limits.forCaller(principal('k1'), 'write');
    const err = await limits.forCaller(principal('k1'), 'write').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(RateLimited);
    const e = err as RateLimited;
    expect([e.status, e.code]).to.deep.equal([429, 'rate_limited']);
    expect(e.headers).to.deep.equal({
      'RateLimit-Policy': '"key";q=3;w=60, "workspace";q=10;w=60',
      RateLimit: '"key";r=0;t=60, "workspace";r=7;t=60',
      'Retry-After': '60',
    });
    expect(e.message).to.include('"key"');
    expect(seen).to.deep.equal(['w1/write']);
    // Another key of the workspace still has its own budget.
    expect((await limits.forCaller(principal('k2'), 'write')).RateLimit).to.equal('"key";r=2;t=60, "workspace";r=6;t=60');
  });

  it('classes a route by what it declares (or decides by the request), else by method', () => {
    expect(rateClassOf({ method: 'get' }, {})).to.equal('read');
    expect(rateClassOf({ method: 'delete' }, {})).to.equal('write');
    expect(rateClassOf({ method: 'post', rateClass: 'expensive' }, {})).to.equal('expensive');
    const byView = { method: 'get', rateClass: (req: { query: { view_id?: string } }) => (req.query.view_id ? ('expensive' as const) : ('read' as const)) };
    expect(rateClassOf(byView, { query: { view_id: 'v1' } })).to.equal('expensive');
    expect(rateClassOf(byView, { query: {} })).to.equal('read');
  });

  it("lets a background job take at most half of a workspace's budget: its teammates keep the other half", async () => {
    const limits = new RateLimits(new RateLimiter(new MemoryWindows(), new ManualClock(START)), { ...settings, key: 100, workspace: 10 });
    const jobItems = async () => {
      let n = 0;
      for (let i = 0; i < 20; i++)
        n += await limits.forJob('w1').then(
          () => 1,
          (e: unknown) => (e instanceof RateLimited ? 0 : Promise.reject(e)),
        );
      return n;
    };
    expect(await jobItems(), 'half of 10').to.equal(5);
    for (let i = 0; i < 5; i++) await limits.forCaller(principal('k1'), 'write');
    // The workspace's own budget is now spent, for teammates and jobs alike.
    expect(await jobItems()).to.equal(0);
    expect(
      await limits.forCaller(principal('k1'), 'write').then(
        () => 'allowed',
        (e: unknown) => (e as RateLimited).code,
      ),
    ).to.equal('rate_limited');
  });

  it("draws an expensive request's cost from the expensive budget alone, and refuses one it has too little left for, spending nothing", async () => {
    const clock = new ManualClock(START);
    const limits = new RateLimits(new RateLimiter(new MemoryWindows(), clock), { ...settings, key: 100, workspace: 100, expensive: 5 });
    const costs = async (n: number) => n;
    // key and workspace count the request once; expensive pays its cost.
    expect((await limits.forCaller(principal('k1'), 'expensive', () => costs(3))).RateLimit).to.equal(
      '"key";r=99;t=60, "workspace";r=99;t=60, "expensive";r=2;t=60',
    );
    const err = await limits
      .forCaller(principal('k1'), 'expensive', () => costs(3))
      .then(
        () => null,
        (e: unknown) => e as RateLimited,
      );
    expect(err).to.be.instanceOf(RateLimited);
    expect(err!.headers).to.deep.include({ RateLimit: '"key";r=99;t=60, "workspace";r=99;t=60, "expensive";r=2;t=60', 'Retry-After': '60' });
    expect(err!.message).to.include('"expensive" (5 requests per 60 s) limit has less left than the 3 units this request costs');
    // What was left is still there for a request that costs less; then it is used up.
    expect((await limits.forCaller(principal('k1'), 'expensive', () => costs(2))).RateLimit).to.equal(
      '"key";r=98;t=60, "workspace";r=98;t=60, "expensive";r=0;t=60',
    );
    const over = await limits.forCaller(principal('k1'), 'expensive').then(
      () => null,
      (e: unknown) => e as RateLimited,
    );
    expect(over!.message).to.include('"expensive" (5 requests per 60 s) limit is used up');
    // A read ignores a cost: only the expensive budget has one.
    expect((await limits.forCaller(principal('k1'), 'read', () => costs(50))).RateLimit).to.equal('"key";r=97;t=60, "workspace";r=97;t=60');
  });
});

describe('rate limits: configuration (unit)', () => {
  it('defaults far above a busy integration, overridable by environment, off only when asked', () => {
    expect(loadConfig({}).rateLimits).to.deep.equal({ windowSeconds: 60, key: 10_000, workspace: 25_000, expensive: 600, channel: 6_000 });
    expect(loadConfig({ RATE_LIMIT_KEY: '5', RATE_LIMIT_WINDOW_SECONDS: '10' }).rateLimits).to.deep.include({ key: 5, windowSeconds: 10 });
    expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits).to.equal(null);
    expect(() => loadConfig({ RATE_LIMITS: 'maybe', RATE_LIMIT_KEY: '0' }))
      .to.throw(ConfigError)
      .that.satisfies(
        (e: ConfigError) =>
          e.problems.some((p) => p.startsWith('RATE_LIMITS must be on or off')) && e.problems.some((p) => p.startsWith('RATE_LIMIT_KEY must be an integer')),
      );
  });
});
