// Sees one workspace's events commit, from a process of its own: LISTENs on the
// event store's channel (the NOTIFY each append sends once it committed) and, on
// each notification, reads the workspace's events after the last it saw (one
// read at a time; a notification during a read makes one more), recording the
// wall-clock time each was first seen. For a figure from one commit to another
// (the rules row's event → its rule's action), both seen the same way, so the
// way of seeing mostly cancels out.
import pg from 'pg';
import { EVENTS_CHANNEL } from '../../src/eventstore/postgres.store.js';
import { daemon } from '../lib/child.js';
import { wallMs } from '../lib/stats.js';

export interface Seen {
  seq: number;
  type: string;
  aggregateId: string;
  /** wall-clock ms the read that returned it ended */
  at: number;
}

export interface ObserverInput {
  url: string;
  tenantId: string;
}

/** `take`: reads once more, then hands over (and forgets) what was seen so far. */
export type ObserverCall = { cmd: 'take' };

daemon<ObserverInput, { fromSeq: number }>(async ({ url, tenantId }) => {
  const listener = new pg.Client({ connectionString: url, application_name: 'bench-commit-observer' });
  const reader = new pg.Client({ connectionString: url, application_name: 'bench-commit-observer' });
  await listener.connect();
  await reader.connect();
  let last = Number((await reader.query('SELECT coalesce(max(seq), 0) AS seq FROM events WHERE tenant_id = $1', [tenantId])).rows[0].seq);
  const fromSeq = last;
  let seen: Seen[] = [];
  let reading: Promise<void> | null = null;
  let again = false;
  const read = (): Promise<void> => {
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      do {
        again = false;
        const r = await reader.query('SELECT seq, type, aggregate_id FROM events WHERE tenant_id = $1 AND seq > $2 ORDER BY seq', [tenantId, last]);
        const at = wallMs();
        for (const row of r.rows as { seq: string; type: string; aggregate_id: string }[]) {
          seen.push({ seq: Number(row.seq), type: row.type, aggregateId: row.aggregate_id, at });
          last = Number(row.seq);
        }
      } while (again);
    })().finally(() => (reading = null));
    return reading;
  };
  listener.on('notification', () => void read().catch(() => undefined));
  await listener.query(`LISTEN ${pg.escapeIdentifier(EVENTS_CHANNEL)}`);
  return {
    ready: { fromSeq },
    async handle(_m: ObserverCall) {
      await read();
      const out = seen;
      seen = [];
      return out;
    },
    async stop() {
      await listener.end();
      await reading?.catch(() => undefined);
      await reader.end();
    },
  };
});
