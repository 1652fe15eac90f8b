// sla: how late the SLA deadline worker appends a breach, with 10,000 open
// conversations under an SLA policy in one workspace. Lag = the breach event's
// created_at (the instant the worker's command appended it) minus the deadline
// (its due_at); the figure is the 99th percentile of the measured breaches, as a
// ratio to the worker's poll interval (SLA_POLL_MS): a worker that polls on time
// and keeps up stays near 1.
//
// The conversations are seeded straight into the read models (conversations, their
// statistics, their SLA rows and the worker's watermark, in one statement), as
// deep-page and search seed theirs: the worker reads those tables, not the log. A
// share of them fall due over a short window right after the seed (those breaches
// are measured); the rest are due hours later and only sit in the table the
// worker's query walks, as a busy queue's open conversations do.
import pg from 'pg';
import { SLA_POLL_MS } from '../../src/capabilities/sla/sla.worker.js';
import { row } from '../lib/report.js';
import { sleep, summarize } from '../lib/stats.js';
import { auth, type Scenario } from './shared.js';

/** The policy's first-response target: each conversation's creation is seeded this long before its due date. */
const TARGET_S = 3600;

const SEED_SQL = `WITH g AS (
    SELECT gen_random_uuid() AS id, i,
           CASE WHEN i <= $4::int THEN $5::timestamptz + make_interval(secs => (i - 1) * $6::float8 / $4::int)
                ELSE $5::timestamptz + interval '6 hours' + make_interval(secs => i) END AS due
      FROM generate_series(1, $3::int) AS i
  ), c AS (
    INSERT INTO conversations (tenant_id, id, channel_id, contact_id, external_id, subject, state, parts_count, created_at, updated_at, last_part_at)
    SELECT $1::uuid, id, $2::uuid, gen_random_uuid(), 'sla-' || i, 'SLA ' || i, 'open', 1,
           due - make_interval(secs => $8::int), due - make_interval(secs => $8::int), due - make_interval(secs => $8::int)
      FROM g RETURNING 1
  ), s AS (
    INSERT INTO conversation_statistics (tenant_id, conversation_id, created_at, state, state_changed_at, awaiting_since, reopens, teammate_replies, customer_replies, seq)
    SELECT $1::uuid, id, due - make_interval(secs => $8::int), 'open', due - make_interval(secs => $8::int), due - make_interval(secs => $8::int), 0, 0, 1, 0
      FROM g RETURNING 1
  ), x AS (
    INSERT INTO conversation_slas (tenant_id, conversation_id, policy_id, first_response_due_at, breaches, met, updated_at)
    SELECT $1::uuid, id, $7::uuid, due, '{}', '{}', now() FROM g RETURNING 1
  ), w AS (
    INSERT INTO sla_watch (tenant_id, conversation_id, seen_seq) SELECT $1::uuid, id, 0 FROM g RETURNING 1
  )
  SELECT (SELECT count(*) FROM c) AS conversations`;

export const sla: Scenario = {
  name: 'sla',
  needsService: true,
  async run(ctx) {
    await ctx.service();
    const t = await ctx.tenant('sla');
    const boot = await ctx.boot();
    const { slaOpen: open, slaMeasured: measured, slaWindowS: windowS } = ctx.sizes;
    const policy = await boot.expect(201, 'POST', '/api/sla_policies', { name: 'Bench', first_response_target_seconds: TARGET_S }, auth(t));

    const c = new pg.Client({ connectionString: ctx.dbs.mainUrl, application_name: 'bench-sla-seed' });
    await c.connect();
    const seeded = performance.now();
    let startAt: Date;
    try {
      // The first deadline a moment after the seed commits (2 s; 1 s in a quick run), the last `windowS` later.
      startAt = new Date(Date.now() + Math.min(2000, windowS * 500));
      await c.query(SEED_SQL, [t.workspaceId, t.channelId, open, measured, startAt.toISOString(), windowS, policy.body.id, TARGET_S]);
      await c.query('ANALYZE conversation_slas, conversation_statistics, sla_watch, conversations');
    } finally {
      await c.end();
    }
    const seedS = (performance.now() - seeded) / 1000;
    ctx.log(`sla: seeded ${open.toLocaleString('en-US')} open conversations under SLA in ${seedS.toFixed(1)} s; ${measured} fall due over ${windowS} s`);

    // Wait for every measured breach (bounded: the window, then 30 s more).
    const until = startAt.getTime() + windowS * 1000 + 30_000;
    const breaches = async () =>
      (
        await boot.db.raw(
          `SELECT extract(epoch FROM created_at - (payload->>'due_at')::timestamptz) * 1000 AS lag_ms, extract(epoch FROM created_at) * 1000 AS at_ms
             FROM events WHERE tenant_id = ? AND type = 'conversation.sla_breached'`,
          [t.workspaceId],
        )
      ).rows.map((r: { lag_ms: string; at_ms: string }) => ({ lag: Number(r.lag_ms), at: Number(r.at_ms) })) as { lag: number; at: number }[];
    let got = await breaches();
    while (got.length < measured && Date.now() < until) {
      await sleep(500);
      got = await breaches();
    }
    const lags = got.map((b) => b.lag);
    const ats = got.map((b) => b.at);
    // the rate the worker appended them at, first to last (what it keeps up with)
    const rate = got.length > 1 ? (got.length - 1) / ((Math.max(...ats) - Math.min(...ats)) / 1000) : null;
    if (lags.length === 0) throw new Error('sla: no breach was appended');
    const lag = summarize(lags);
    const late = open - measured;
    return [
      row({
        scenario: 'sla',
        figure: `p99 breach lag (appended − deadline), ${open.toLocaleString('en-US')} open conversations under SLA, ${measured.toLocaleString('en-US')} due over ${windowS} s`,
        unit: 'ms',
        ours: lag.p99,
        baselineLabel: 'poll interval (SLA_POLL_MS)',
        baseline: SLA_POLL_MS,
        target: { kind: 'ratio<=', value: 2 },
        note: `${lags.length} of ${measured} breaches appended${lags.length < measured ? ' before the wait ended' : ''} (due at ${(measured / windowS).toFixed(0)}/s, appended at ${rate === null ? '-' : rate.toFixed(0)}/s); lag p50 ${lag.p50.toFixed(0)} ms, max ${lag.max.toFixed(0)} ms; seeded straight into the read models (conversations, conversation_statistics, conversation_slas, sla_watch) in one statement (${seedS.toFixed(1)} s); the other ${late.toLocaleString('en-US')} fall due hours later; the service's own worker, polling every ${SLA_POLL_MS} ms`,
        details: { lag_ms: lag, open, measured, breaches: lags.length, window_s: windowS, appended_per_s: rate, poll_ms: SLA_POLL_MS, seed_s: seedS },
      }),
    ];
  },
};
