// The offload pool's budgets (src/platform/offload.ts): in CPU time where Linux
// tells a thread's CPU time, so a task a busy machine leaves waiting for a core
// is not ended for the wait (good mail was refused 552 for good that way), while
// a task that computes past its budget is ended all the same; in wall-clock time
// when asked (sender authentication's budget covers its DNS waits).
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { OverBudget, offload, type Offload } from '../../src/platform/offload.js';

const TASKS = new URL('./offload-tasks.ts', import.meta.url);

describe('offload budgets (int)', function () {
  this.timeout(60_000);
  let pool: Offload;
  /** the thread id the pool of waiting tasks runs them in */
  let waitingThread: Promise<number>;
  before(async () => {
    expect(existsSync('/proc/thread-self/stat'), 'these tests run where /proc tells a thread its CPU time').to.equal(true);
    pool = offload({ threads: 1, heapMb: 64 });
    // The thread loads the tasks' module once, on a budget of its own (a busy machine may take seconds to).
    expect(await pool.run(TASKS, 'spin', 1, { timeoutMs: 60_000, clock: 'wall' })).to.equal('done');
    expect(await pool.run(TASKS, 'spin', 1, { timeoutMs: 60_000 })).to.equal('done');
    waitingThread = pool.run(TASKS, 'threadIdOf', null, { timeoutMs: 60_000, clock: 'wall' });
  });
  after(() => pool.close());

  const outcome = (p: Promise<unknown>) => p.then(String, (e: Error) => (e instanceof OverBudget ? 'over budget' : `error: ${e.message}`));

  it('lets a task that spends no CPU run past its CPU budget in wall-clock time (a starved thread is not over budget)', async () => {
    expect(await outcome(pool.run(TASKS, 'idle', 1000, { timeoutMs: 300 }))).to.equal('done');
  });

  it('ends an idle task at its budget when the budget is wall-clock time', async () => {
    // It would wait half a minute: only the budget ends it (a second's wait lost the race to a main thread held up longer).
    expect(await outcome(pool.run(TASKS, 'idle', 30_000, { timeoutMs: 300, clock: 'wall' }))).to.equal('over budget');
  });

  it('ends a task that computes past its CPU budget, and the pool goes on with a fresh thread', async () => {
    expect(await outcome(pool.run(TASKS, 'spin', 20_000, { timeoutMs: 300 }))).to.equal('over budget');
    expect(await outcome(pool.run(TASKS, 'spin', 10, { timeoutMs: 5000 }))).to.equal('done');
  });

  it('runs waiting tasks side by side: one waiting out its budget holds no other, and ends alone', async () => {
    // Both in the one thread's pool of waiting tasks. In one queue, the short task would wait behind the long one's 3 s.
    const long = outcome(pool.run(TASKS, 'idle', 30_000, { timeoutMs: 3000, clock: 'wall' }));
    const short = outcome(pool.run(TASKS, 'idle', 10, { timeoutMs: 60_000, clock: 'wall' }));
    const first = await Promise.race([long.then(() => 'long'), short.then(() => 'short')]);
    expect(first).to.equal('short');
    expect(await short).to.equal('done');
    expect(await long).to.equal('over budget');
    // Ended by its own deadline, not with its thread: the thread that ran both runs the next one at once.
    expect(await outcome(pool.run(TASKS, 'threadIdOf', null, { timeoutMs: 60_000, clock: 'wall' }))).to.equal(String(await waitingThread));
  });

  it('ends a waiting task that computes past its budget, with its thread', async () => {
    expect(await outcome(pool.run(TASKS, 'spin', 20_000, { timeoutMs: 300, clock: 'wall' }))).to.equal('over budget');
    expect(await outcome(pool.run(TASKS, 'spin', 10, { timeoutMs: 5000, clock: 'wall' }))).to.equal('done');
  });

  it('still ends a task that never spends its CPU budget once ten times its budget has passed in wall-clock time', async () => {
    expect(await outcome(pool.run(TASKS, 'idle', 20_000, { timeoutMs: 200 }))).to.equal('over budget');
  });
});
