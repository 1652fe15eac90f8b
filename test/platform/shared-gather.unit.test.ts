// SharedGather (src/platform/shared-gather.ts): how the SMTP receiver's thread
// gathers a message's chunks into shared memory. Counted, not timed: each byte
// copied once, the buffer grown about 20 times for 20 MB (not once a chunk),
// never more than twice the bytes (and 4 MiB past them) grown ahead.
import { expect } from 'chai';
import { SharedGather, type GatherStats } from '../../src/platform/shared-gather.js';

const MiB = 1024 * 1024;

/** `total` bytes of a pattern, cut as a socket's reads cut a message (64 KiB, and a short one now and then). */
function chunksOf(total: number): Buffer[] {
  const all = Buffer.alloc(total);
  for (let i = 0; i < total; i++) all[i] = (i * 7 + (i >> 13)) & 0xff;
  const out: Buffer[] = [];
  for (let at = 0, n = 0; at < total; n++) {
    const len = Math.min(total - at, n % 5 === 4 ? 1_000 + n : 65_536);
    out.push(all.subarray(at, at + len));
    at += len;
  }
  return out;
}

describe('gathering chunks into shared memory (unit)', function () {
  this.timeout(60_000);

  it('copies each byte once into shared memory, grows about 20 times for 20 MB, and never far ahead of the bytes', () => {
    const chunks = chunksOf(20 * MiB);
    const stats: GatherStats = { bytes: 0, grows: 0 };
    const g = new SharedGather(25 * MiB, stats);
    let length = 0;
    for (const c of chunks) {
      expect(g.append(c)).to.equal(true);
      length += c.length;
      // What is grown ahead: at most as much again as the bytes, and at most 4 MiB.
      expect(g.bytes().buffer.byteLength).to.be.at.most(length + Math.min(length, 4 * MiB));
    }
    const raw = g.bytes();
    expect(raw.buffer).to.be.an.instanceOf(SharedArrayBuffer);
    expect(raw.equals(Buffer.concat(chunks))).to.equal(true);
    expect(stats.bytes).to.equal(20 * MiB);
    // One grow a chunk was 387 here (a system call each); ahead by up to 4 MiB, it is about 20.
    expect(chunks.length).to.be.above(300);
    expect(stats.grows).to.be.at.most(32);
  });

  it('keeps nothing past its maximum', () => {
    const g = new SharedGather(100_000);
    expect(g.append(Buffer.alloc(60_000, 1))).to.equal(true);
    expect(g.append(Buffer.alloc(50_000, 2))).to.equal(false);
    expect(g.append(Buffer.alloc(40_000, 3))).to.equal(true);
    const raw = g.bytes();
    expect(raw.length).to.equal(100_000);
    expect(raw.buffer.byteLength).to.be.at.most(100_000);
    expect(raw.subarray(60_000).every((b) => b === 3)).to.equal(true);
  });
});
