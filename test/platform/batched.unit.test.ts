// batched(): calls of one key made while a batch runs go together in the next;
// each caller gets its own result, and nothing waits when only one call is made.
import { expect } from 'chai';
import { batched, batchedOn } from '../../src/platform/db/batched.js';

/** A run function whose batches finish only when the test says so. */
function gatedRun() {
  const batches: { key: string; items: number[]; finish(fail?: Error): void }[] = [];
  const run = (key: string, items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({ key, items, finish: (fail) => (fail ? reject(fail) : resolve(items.map((i) => `${key}:${i * 10}`))) });
    });
  return { batches, run };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('batched calls (unit)', () => {
  it('runs the first call at once and the calls made meanwhile together, each answered with its own result', async () => {
    const { batches, run } = gatedRun();
    const call = batched(run);
    const first = call('t1', 1);
    await tick();
    expect(batches.map((b) => b.items)).to.deep.equal([[1]]);
    const later = [call('t1', 2), call('t1', 3), call('t1', 4)];
    await tick();
    expect(batches).to.have.length(1); // they wait for the one in flight
    batches[0]!.finish();
    expect(await first).to.equal('t1:10');
    await tick();
    expect(batches.map((b) => b.items)).to.deep.equal([[1], [2, 3, 4]]);
    batches[1]!.finish();
    expect(await Promise.all(later)).to.deep.equal(['t1:20', 't1:30', 't1:40']);
  });

  it('with gather, runs the calls made in one turn of the event loop as one batch', async () => {
    const { batches, run } = gatedRun();
    const call = batched(run, { gather: true });
    const calls = [call('t1', 1), call('t1', 2)];
    await Promise.resolve();
    calls.push(call('t1', 3)); // a later microtask of the same turn
    expect(batches).to.have.length(0);
    await tick();
    expect(batches.map((b) => b.items)).to.deep.equal([[1, 2, 3]]);
    batches[0]!.finish();
    expect(await Promise.all(calls)).to.deep.equal(['t1:10', 't1:20', 't1:30']);
  });

  it("with gather 'microtask', runs the calls made before the caller's next await as one batch, without waiting for the event loop", async () => {
    const { batches, run } = gatedRun();
    const call = batched(run, { gather: 'microtask' });
    const calls = [call('t1', 1), call('t1', 2), call('t1', 3)];
    expect(batches).to.have.length(0);
    await Promise.resolve();
    expect(batches.map((b) => b.items)).to.deep.equal([[1, 2, 3]]);
    calls.push(call('t1', 4)); // after the batch went: the next one
    batches[0]!.finish();
    await tick();
    expect(batches.map((b) => b.items)).to.deep.equal([[1, 2, 3], [4]]);
    batches[1]!.finish();
    expect(await Promise.all(calls)).to.deep.equal(['t1:10', 't1:20', 't1:30', 't1:40']);
  });

  it("batchedOn keeps handles apart: calls through one handle batch together, never with another handle's", async () => {
    const { batches, run } = gatedRun();
    const seen: object[] = [];
    const call = batchedOn((db: object, key: string, items: number[]) => (seen.push(db), run(key, items)), { gather: 'microtask' });
    const a = {};
    const b = {};
    const calls = [call(a, 't1', 1), call(b, 't1', 2), call(a, 't1', 3)];
    await Promise.resolve();
    expect(batches.map((x) => x.items)).to.deep.equal([[1, 3], [2]]);
    expect(seen).to.deep.equal([a, b]);
    expect(seen[0]).to.equal(a);
    batches.forEach((x) => x.finish());
    expect(await Promise.all(calls)).to.deep.equal(['t1:10', 't1:20', 't1:30']);
  });

  it('keeps keys apart: another key does not wait and never shares a batch', async () => {
    const { batches, run } = gatedRun();
    const call = batched(run);
    const a = call('t1', 1);
    const b = call('t2', 2);
    await tick();
    expect(batches.map((x) => [x.key, x.items])).to.deep.equal([
      ['t1', [1]],
      ['t2', [2]],
    ]);
    batches.forEach((x) => x.finish());
    expect(await Promise.all([a, b])).to.deep.equal(['t1:10', 't2:20']);
  });

  it('puts two calls with the same identity in different batches, and caps a batch at max', async () => {
    const { batches, run } = gatedRun();
    const call = batched(run, { identity: (i) => String(i % 2), max: 3 });
    const all = [call('t', 0), call('t', 2), call('t', 4), call('t', 1), call('t', 3)];
    for (let n = 0; n < 4; n++) {
      await tick();
      batches.at(-1)?.finish();
    }
    await Promise.all(all);
    expect(batches.map((b) => b.items)).to.deep.equal([[0], [2, 1], [4, 3]]);
  });

  it('fails only the calls of the batch that failed', async () => {
    const { batches, run } = gatedRun();
    const call = batched(run);
    const first = call('t', 1);
    const second = call('t', 2);
    await tick();
    batches[0]!.finish(new Error('boom'));
    const failed = await first.then(
      () => null,
      (e: Error) => e.message,
    );
    expect(failed).to.equal('boom');
    await tick();
    batches[1]!.finish();
    expect(await second).to.equal('t:20');
  });
});
