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
  before(async () => {
    expect(existsSync('/proc/thread-self/stat'), 'these tests run where /proc tells a thread its CPU time').to.equal(true);
    pool = offload({ threads: 1, heapMb: 64 });
    // The thread loads the tasks' module once, on a budget of its own (a busy machine may take seconds to).
    expect(await pool.run(TASKS, 'spin', 1, { timeoutMs: 60_000, clock: 'wall' })).to.equal('done');
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

  it('still ends a task that never spends its CPU budget once ten times its budget has passed in wall-clock time', async () => {
    expect(await outcome(pool.run(TASKS, 'idle', 20_000, { timeoutMs: 200 }))).to.equal('over budget');
  });
});
