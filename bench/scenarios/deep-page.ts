// deep page: the p50 of a keyset-paginated list request far down a workspace's
// conversations, against the first page; and the control, the same query with
// OFFSET at the same depth, to show the depth is real.
import pg from 'pg';
import { encodeCursor } from '../../src/api/pagination/cursor.js';
import { isoKey } from '../../src/api/pagination/list.js';
import { runTask } from '../lib/child.js';
import { row } from '../lib/report.js';
import type { OffsetInput, OffsetResult } from '../workers/pg-offset.js';
import type { LatencySummary } from '../lib/stats.js';
import { auth, interleaved, type Scenario } from './shared.js';

const SEED_SQL = `INSERT INTO conversations (tenant_id, id, channel_id, contact_id, external_id, subject, state, snoozed_until, assignee_id, team_id, parts_count, created_at, updated_at, last_part_at)
  SELECT $1::uuid, gen_random_uuid(), $2::uuid, gen_random_uuid(), 'deep-' || g, 'Order ' || g,
         (ARRAY['open','closed','snoozed'])[1 + g % 3], NULL, NULL, NULL, 1 + g % 7,
         base - make_interval(secs => g * 60), base - make_interval(secs => g * 60 - (g % 50)), base - make_interval(secs => g * 60 - (g % 50))
    FROM generate_series(1, $3::int) AS g, (SELECT date_trunc('second', now()) AS base) b`;

/**
 * Bulk-inserts `rows` conversations straight into the read model of one tenant
 * (a read benchmark needs the rows, not their history), with generate_series in
 * one statement. The table's secondary indexes are dropped first and rebuilt
 * after, from their own definitions, in the same transaction: building an index
 * over a million rows is several times faster than maintaining it row by row,
 * and should anything fail the transaction rolls back with every index intact.
 * Where that is not allowed (not the table's owner), the plain INSERT.
 */
async function seedConversations(
  url: string,
  tenantId: string,
  channelId: string,
  rows: number,
): Promise<{ method: string; seconds: number; indexes: string[] }> {
  const c = new pg.Client({ connectionString: url, application_name: 'bench-deep-page-seed' });
  await c.connect();
  const started = performance.now();
  try {
    let indexes: string[] = [];
    let method = 'INSERT … SELECT generate_series, secondary indexes rebuilt after';
    try {
      await c.query('BEGIN');
      const defs = (
        await c.query<{ name: string; def: string }>(
          `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
            WHERE i.schemaname = current_schema() AND i.tablename = 'conversations'
              AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname AND k.conrelid = 'conversations'::regclass)`,
        )
      ).rows;
      for (const d of defs) await c.query(`DROP INDEX ${c.escapeIdentifier(d.name)}`);
      await c.query(SEED_SQL, [tenantId, channelId, rows]);
      await c.query("SET LOCAL maintenance_work_mem = '256MB'");
      for (const d of defs) await c.query(d.def);
      await c.query('COMMIT');
      indexes = defs.map((d) => d.name);
    } catch {
      await c.query('ROLLBACK').catch(() => undefined);
      method = 'INSERT … SELECT generate_series';
      await c.query(SEED_SQL, [tenantId, channelId, rows]);
    }
    // Visibility map and statistics now, so no autovacuum of a million fresh rows runs under a later
    // scenario; a checkpoint, so the seed's WAL is not flushed while latencies are taken.
    await c.query('VACUUM ANALYZE conversations').catch(() => c.query('ANALYZE conversations'));
    await c.query('CHECKPOINT').catch(() => undefined);
    return { method, seconds: (performance.now() - started) / 1000, indexes };
  } finally {
    await c.end();
  }
}

export const deepPage: Scenario = {
  name: 'deep-page',
  aliases: ['deep'],
  needsService: true,
  async run(ctx) {
    const svc = await ctx.service();
    const t = await ctx.tenant('deep');
    const depth = ctx.sizes.deepDepth;
    const seedRows = depth + 1000;
    const perPage = 20;
    const boot = await ctx.boot();
    const seed = await seedConversations(ctx.dbs.mainUrl, t.workspaceId, t.channelId, seedRows);
    ctx.log(`deep-page: seeded ${seedRows.toLocaleString('en-US')} conversations in ${seed.seconds.toFixed(1)} s (${seed.method})`);
    // The cursor a client holds after walking `depth` rows: minted with the route's own
    // encoder from the real sort key and id of the row at that depth (default sort: updated_at desc).
    const at = (
      await boot.db.raw(`SELECT updated_at, id FROM conversations WHERE tenant_id = ? ORDER BY updated_at DESC, id DESC OFFSET ? LIMIT 1`, [
        t.workspaceId,
        depth - 1,
      ])
    ).rows[0] as {
      updated_at: Date;
      id: string;
    };
    const cursor = encodeCursor({ sort: 'updated_at', order: 'desc', key: isoKey(at.updated_at), id: at.id });
    const firstPath = `/api/conversations?per_page=${perPage}`;
    const deepPath = `${firstPath}&starting_after=${cursor}`;
    // The deep page must be the page right after row `depth` (checked once, not timed).
    const check = await boot.http('GET', deepPath, undefined, auth(t));
    if (check.status !== 200 || check.body?.data?.length !== perPage) throw new Error(`deep page answered ${check.status}: ${check.text.slice(0, 300)}`);
    // The first page and the deep page take turns on one connection for the whole run (twice the
    // latency window: each gets as many requests as it would have had alone).
    const timed = await interleaved(ctx, {
      url: svc.url,
      paths: [firstPath, deepPath],
      headers: auth(t),
      durationS: 2 * ctx.sizes.latencyS,
      warmupS: ctx.sizes.warmupS,
    });
    const [first, deep] = timed.latencyMs as [LatencySummary, LatencySummary];
    if (timed.non2xx.some((x) => x > 0)) throw new Error(`the list route answered non-2xx during the run: ${timed.sampleError ?? ''}`);
    const control = await runTask<OffsetResult>(
      'pg-offset.ts',
      { url: ctx.dbs.mainUrl, tenantId: t.workspaceId, depth, perPage, durationS: ctx.sizes.latencyS, warmupS: ctx.sizes.warmupS } satisfies OffsetInput,
      { timeoutMs: 120_000 + ctx.sizes.latencyS * 4000 },
    );
    const note = `${seedRows.toLocaleString('en-US')} conversations bulk-inserted straight into the conversations read model of one workspace (${seed.method}; ${seed.seconds.toFixed(1)} s), not through the API; cursor minted with encodeCursor for the row at depth ${depth.toLocaleString('en-US')}; per_page=${perPage}; first and deep page requests take turns on 1 connection (${timed.ok[0]} + ${timed.ok[1]} timed)`;
    return [
      row({
        scenario: 'deep-page',
        figure: `p50 GET /api/conversations after ${depth.toLocaleString('en-US')} rows (keyset cursor)`,
        unit: 'ms',
        ours: deep.p50,
        baselineLabel: 'first page p50',
        baseline: first.p50,
        target: { kind: 'ratio<=', value: 1.2 },
        note,
        details: { deep_ms: deep, first_ms: first, requests: timed.ok, seconds: timed.durationS, seed_rows: seedRows, depth, seed },
      }),
      row({
        scenario: 'deep-page control',
        figure: `p50 pg OFFSET ${depth.toLocaleString('en-US')} LIMIT ${perPage + 1} (no keyset)`,
        unit: 'ms',
        ours: control.deep.p50,
        baselineLabel: 'OFFSET 0 p50',
        baseline: control.first.p50,
        target: { kind: 'ratio>=', value: 10 },
        note: 'shows what OFFSET pagination would cost at this depth, on the same rows',
        details: { ...control },
      }),
    ];
  },
};
