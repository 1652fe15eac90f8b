// How the failover runs measure an outage (scripts/failover/checks.ts): the
// EventStoreDB run's figure goes from the first write that failed or stalled
// after a kill to the first write sent after that and acknowledged.
import { expect } from 'chai';
import { outages, writeOutages } from '../../scripts/failover/checks.js';
import type { Attempt, RequestRecord } from '../../scripts/scale-out/load.js';

const K = 100_000; // the kill
const write = (...attempts: [number, number, number | null][]): RequestRecord => ({
  client: 0,
  kind: 'reply',
  method: 'POST',
  path: '/api/conversations/x/reply',
  attempts: attempts.map(([start, end, status]): Attempt => ({ start: K + start, end: K + end, status })),
  final: attempts.at(-1)![2],
  replayed: false,
});

describe('failover outages (unit)', () => {
  it('runs from the first failed write (one in flight at the kill counts from the kill) to the first acknowledged write sent after it', () => {
    const records = [
      write([-50, 20, 201]), // acknowledged by the old leader just after the kill: no outage yet
      write([-30, 1_500, 503], [1_700, 1_800, 503], [2_600, 2_700, 201]), // in flight at the kill, failed: the outage began at the kill
      write([900, 2_650, 201]), // sent during the outage, answered after: the first acknowledged write sent after its start
      { ...write([1_000, 1_100, 200]), method: 'GET' }, // reads never end an outage
    ];
    const [o] = writeOutages(records, [{ target: 'node1', at: K }], 2_000);
    expect(o).to.deep.equal({ target: 'node1', first_failed_s: 0, first_success_s: 2.65, seconds: 2.65 });
  });

  it('counts a write that stalls past the threshold from when it was sent, one within it not at all', () => {
    const records = [write([300, 1_000, 201]), write([500, 4_000, 201]), write([4_100, 4_200, 201])];
    const [o] = writeOutages(records, [{ target: 'node2', at: K }], 2_000);
    // the 700 ms write is normal latency; the 3.5 s one is the outage, ended by the write acknowledged at +4.0 s (sent at +0.5 s: itself)
    expect(o).to.deep.equal({ target: 'node2', first_failed_s: 0.5, first_success_s: 4, seconds: 3.5 });
  });

  it('keeps each kill to its own stretch, and says null when no write failed or stalled', () => {
    const records = [write([100, 200, 201]), write([10_100, 10_300, null], [10_400, 10_900, 201])];
    const kills = [
      { target: 'node1', at: K },
      { target: 'node3', at: K + 10_000 },
    ];
    expect(writeOutages(records, kills, 2_000)).to.deep.equal([
      { target: 'node1', first_failed_s: null, first_success_s: null, seconds: null },
      { target: 'node3', first_failed_s: 0.1, first_success_s: 0.9, seconds: 0.8 },
    ]);
    // the Patroni run's figure (kill to the end of the longest silence) over the same records
    expect(outages(records, kills).map((o) => o.seconds)).to.deep.equal([0.2, 0.9]);
  });
});
