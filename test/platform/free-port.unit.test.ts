// The embedded Postgres takes a port the system says is free, but never one of the ports its own process was told to
// listen on: a port found free is closed again before anyone binds it, so the system may hand it out twice, and
// a service started with PORT=p once got p for its Postgres too, then could not listen (EADDRINUSE, seen in CI on
// test/process/closed-directory.e2e.test.ts). The system's choice is the input here: a sequence that repeats.
import { expect } from 'chai';
import { freePort } from '../../src/platform/db/embedded-postgres.js';

/** A port source that answers `ports` in turn, and counts the asks. */
function answering(...ports: number[]) {
  let asked = 0;
  return {
    next: async () => ports[Math.min(asked++, ports.length - 1)]!,
    asked: () => asked,
  };
}

describe('freePort (unit)', () => {
  it('asks again when the system hands out a port the process will listen on', async () => {
    const system = answering(41000, 41000, 41002);
    expect(await freePort([41000], system.next)).to.equal(41002);
    expect(system.asked()).to.equal(3);
  });

  it('takes the first port when nothing is to be avoided', async () => {
    const system = answering(41000);
    expect(await freePort([], system.next)).to.equal(41000);
    expect(system.asked()).to.equal(1);
  });

  it('gives up asking after 21 answers, with the last (the caller then fails to bind, as before)', async () => {
    const system = answering(41000);
    expect(await freePort([41000], system.next)).to.equal(41000);
    expect(system.asked()).to.equal(21);
  });

  it('answers a real free port of 127.0.0.1 by default, none of those avoided', async () => {
    const taken = await freePort();
    const again = await freePort([taken]);
    expect(again).to.be.within(1, 65535);
    expect(again).to.not.equal(taken);
  });
});
