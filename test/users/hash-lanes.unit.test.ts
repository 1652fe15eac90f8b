import { expect } from 'chai';
import { LaneFull, LaneScheduler } from '../../src/capabilities/users/hash-lanes.js';

/** A job that runs until released, recording when it started. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return {
    job: async () => {
      log.push(name);
      await done;
      return name;
    },
    release,
  };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('password-hash lanes (unit)', () => {
  it('runs at most one job per lane and shares free slots round-robin across lanes', async () => {
    const s = new LaneScheduler(2, 100);
    const log: string[] = [];
    const a = Array.from({ length: 5 }, (_, i) => gate(log, `a${i}`));
    const b = gate(log, 'b0');
    const c = gate(log, 'c0');
    const runs = [...a.map((g) => s.run('A', g.job)), s.run('B', b.job), s.run('C', c.job)];
    await tick();
    // A's burst came first, yet only one of it runs; B takes the second slot
    expect(log).to.deep.equal(['a0', 'b0']);
    b.release();
    await tick();
    // the slot goes to C, not to A's second attempt (A is still busy)
    expect(log).to.deep.equal(['a0', 'b0', 'c0']);
    a[0]!.release();
    c.release();
    await tick();
    expect(log).to.deep.equal(['a0', 'b0', 'c0', 'a1']);
    for (const g of a) g.release();
    await Promise.all(runs);
    expect(log).to.deep.equal(['a0', 'b0', 'c0', 'a1', 'a2', 'a3', 'a4']);
    expect(s.stats()).to.deep.equal({ running: 0, lanes: 0, waiting: 0 });
  });

  it('refuses beyond the per-lane line, and gives work without a lane a line of its own', async () => {
    const s = new LaneScheduler(1, 2);
    const log: string[] = [];
    const g = [gate(log, 'x0'), gate(log, 'x1'), gate(log, 'x2')];
    const runs = g.map((x) => s.run('X', x.job));
    await tick();
    // x0 runs, x1 waits, x2 waits: the line (2) is full
    let refused: unknown;
    await s.run('X', async () => 'x3').catch((e) => (refused = e));
    expect(refused).to.be.instanceOf(LaneFull);
    expect((refused as LaneFull).status).to.equal(429);
    const free = gate(log, 'free');
    const anon = s.run(undefined, free.job);
    for (const x of g) x.release();
    free.release();
    await Promise.all([...runs, anon]);
    // X was waiting first, so x1 goes next; then X goes to the back and the laneless job comes before x2
    expect(log).to.deep.equal(['x0', 'x1', 'free', 'x2']);
  });
});
