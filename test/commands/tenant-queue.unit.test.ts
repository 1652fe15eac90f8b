// The EventStoreDB path's stand-in for a tenant lock: one workspace's commands
// run one after another, another workspace's beside them, and a failed command
// does not stop the ones queued behind it.
import { expect } from 'chai';
import { TenantQueue } from '../../src/commands/tenant-queue.js';

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
};

describe('TenantQueue', () => {
  it("runs a tenant's commands in arrival order, each after the one before has settled", async () => {
    const q = new TenantQueue();
    const seen: string[] = [];
    const first = gate();
    const a = q.run('t1', async () => {
      seen.push('a start');
      await first.opened;
      seen.push('a end');
    });
    const b = q.run('t1', async () => void seen.push('b'));
    // Another tenant is not held behind t1's first command.
    await q.run('t2', async () => void seen.push('other tenant'));
    expect(seen).to.deep.equal(['a start', 'other tenant']);
    first.open();
    await Promise.all([a, b]);
    expect(seen).to.deep.equal(['a start', 'other tenant', 'a end', 'b']);
  });

  it('goes on after a command that failed, giving each caller its own outcome, and forgets idle tenants', async () => {
    const q = new TenantQueue();
    const failed = q.run('t1', async () => {
      throw new Error('refused');
    });
    const next = q.run('t1', async () => 42);
    const outcome = await failed.then(
      () => 'fulfilled',
      (e: Error) => e.message,
    );
    expect(outcome).to.equal('refused');
    expect(await next).to.equal(42);
    await new Promise((r) => setImmediate(r));
    expect(q.size).to.equal(0);
  });
});
