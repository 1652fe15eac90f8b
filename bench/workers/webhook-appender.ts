// Drives the webhook latency scenario: appends one conversation_part.created
// (a teammate's reply, as the reply route makes it) through the real
// PostgresEventStore at a steady rate, never waiting for one append before
// starting the next on schedule, and returns when each append was started
// and committed, by seq. The baseline mode sends bare pg NOTIFYs at the same
// rate to a LISTEN connection and times the round trip.
import pg from 'pg';
import { createDb } from '../../src/platform/db/database.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import { task } from '../lib/child.js';
import { replyEvent } from '../lib/events.js';
import { sleep, steady, summarize, wallMs, type LatencySummary } from '../lib/stats.js';
import { closeKnex } from '../lib/knex-close.js';

export type AppenderInput =
  | { mode: 'append'; url: string; tenantId: string; conversationId: string; channelId: string; rate: number; count: number }
  | { mode: 'notify'; url: string; rate: number; count: number };

export interface Appended {
  seq: number;
  startedAt: number;
  committedAt: number;
}

export type AppenderResult =
  { mode: 'append'; appended: Appended[]; failures: number; seconds: number } | { mode: 'notify'; latencyMs: LatencySummary; lost: number; seconds: number };

/** Pool size of the appender and of the baseline's senders. */
const POOL = 8;

/**
 * Opens every connection of a pool before the clock starts: POOL overlapping queries
 * each take one. A connection opened inside the timed run costs that append a
 * backend start and a SCRAM handshake (several ms on two busy vCPUs), which is
 * this process's start-up, not the way from an append to a receiver.
 */
async function openAll(query: (sql: string) => Promise<unknown>): Promise<void> {
  await Promise.all(Array.from({ length: POOL }, () => query('SELECT pg_sleep(0.05)')));
}

async function appendMode(input: Extract<AppenderInput, { mode: 'append' }>): Promise<AppenderResult> {
  const db = createDb(input.url, { max: POOL });
  const store = new PostgresEventStore(db, null);
  const appended: Appended[] = [];
  let failures = 0;
  try {
    await openAll((sql) => db.raw(sql));
    const seconds = await steady(input.rate, input.count, async (i) => {
      const startedAt = wallMs();
      try {
        const [stored] = await store.append(input.tenantId, [replyEvent(input.conversationId, input.channelId, 'bench', i)], 'any');
        appended.push({ seq: stored!.seq, startedAt, committedAt: wallMs() });
      } catch {
        failures++;
      }
    });
    return { mode: 'append', appended, failures, seconds };
  } finally {
    await closeKnex(db);
  }
}

async function notifyMode(input: Extract<AppenderInput, { mode: 'notify' }>): Promise<AppenderResult> {
  const listener = new pg.Client({ connectionString: input.url });
  const sender = new pg.Pool({ connectionString: input.url, max: POOL });
  await listener.connect();
  const sent = new Map<number, number>();
  const latencies: number[] = [];
  listener.on('notification', (n) => {
    const at = wallMs();
    const i = Number(n.payload);
    const t = sent.get(i);
    if (t !== undefined) {
      latencies.push(at - t);
      sent.delete(i);
    }
  });
  try {
    await listener.query('LISTEN bench_ping');
    await openAll((sql) => sender.query(sql));
    const seconds = await steady(input.rate, input.count, async (i) => {
      sent.set(i, wallMs());
      await sender.query('SELECT pg_notify($1, $2)', ['bench_ping', String(i)]);
    });
    await sleep(200);
    return { mode: 'notify', latencyMs: summarize(latencies), lost: sent.size, seconds };
  } finally {
    await listener.end();
    await sender.end();
  }
}

task<AppenderInput, AppenderResult>((input) => (input.mode === 'append' ? appendMode(input) : notifyMode(input)));
