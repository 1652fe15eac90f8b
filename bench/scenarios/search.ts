// search: the p50 of a two-condition conversation search with a body-text
// condition (state = open AND body ~ "refund": full-text over the parts)
// against the first page of GET /api/conversations, taking turns on one
// connection in the same run. Seeded straight into the read models of one
// workspace (conversations and their parts), as deep-page seeds: a read
// benchmark needs the rows, not their history.
import pg from 'pg';
import { row } from '../lib/report.js';
import type { LatencySummary } from '../lib/stats.js';
import { auth, interleaved, type Scenario } from './shared.js';

const PARTS_PER_CONVERSATION = 5;
export const SEARCH_TERM = 'refund';
/** A word about 1 part in 10,000 holds: the rare case, where walking conversations in order would visit them all. */
export const RARE_TERM = 'chargeback';
// 40 words; each part's body carries three of them (chosen by a hash), so a word is in about 7% of parts.
const WORDS = [
  'order',
  'parcel',
  'refund',
  'invoice',
  'delivery',
  'tracking',
  'password',
  'account',
  'login',
  'billing',
  'discount',
  'voucher',
  'upgrade',
  'cancel',
  'subscription',
  'shipping',
  'address',
  'warranty',
  'return',
  'exchange',
  'broken',
  'missing',
  'late',
  'damaged',
  'payment',
  'card',
  'charge',
  'receipt',
  'support',
  'manager',
  'thanks',
  'urgent',
  'question',
  'problem',
  'colour',
  'size',
  'stock',
  'price',
  'coupon',
  'gift',
];

const word = (salt: number) => `(ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}])[1 + abs(hashtext(c.id::text || '${salt}' || k)) % ${WORDS.length}]`;

const SEED_CONVERSATIONS = `INSERT INTO conversations (tenant_id, id, channel_id, contact_id, external_id, subject, state, snoozed_until, assignee_id, team_id, parts_count, created_at, updated_at, last_part_at)
  SELECT $1::uuid, gen_random_uuid(), $2::uuid, gen_random_uuid(), 'search-' || g, 'Ticket ' || g,
         (ARRAY['open','closed','snoozed'])[1 + g % 3], NULL, NULL, NULL, ${PARTS_PER_CONVERSATION},
         base - make_interval(secs => g * 60), base - make_interval(secs => g * 60 - (g % 50)), base - make_interval(secs => g * 60 - (g % 50))
    FROM generate_series(1, $3::int) AS g, (SELECT date_trunc('second', now()) AS base) b`;

const SEED_PARTS = `INSERT INTO conversation_parts (tenant_id, id, conversation_id, seq, part_type, body, author_type, author_id, external_id, attachments, details, created_at)
  SELECT c.tenant_id, gen_random_uuid(), c.id, k, CASE WHEN k = 1 THEN 'message' ELSE 'comment' END,
         'Hello, about ticket ' || c.external_id || ': ' || ${word(1)} || ' ' || ${word(2)} || ' ' || ${word(3)} || '. Kind regards.'
           || CASE WHEN abs(hashtext(c.id::text || 'rare' || k)) % 10000 = 0 THEN ' ${RARE_TERM}' ELSE '' END,
         'contact', c.contact_id::text, NULL, '[]', '{}', c.created_at + make_interval(secs => k)
    FROM conversations c, generate_series(1, ${PARTS_PER_CONVERSATION}) AS k
   WHERE c.tenant_id = $1::uuid`;

/** Secondary indexes of a table (not its constraints): dropped before a bulk insert and rebuilt after. */
async function secondaryIndexes(c: pg.Client, table: string): Promise<{ name: string; def: string }[]> {
  return (
    await c.query<{ name: string; def: string }>(
      `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
        WHERE i.schemaname = current_schema() AND i.tablename = $1
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname AND k.conrelid = $1::regclass)`,
      [table],
    )
  ).rows;
}

async function seed(url: string, tenantId: string, channelId: string, rows: number): Promise<{ method: string; seconds: number }> {
  const c = new pg.Client({ connectionString: url, application_name: 'bench-search-seed' });
  await c.connect();
  const started = performance.now();
  try {
    let method = 'INSERT … SELECT generate_series, secondary indexes rebuilt after';
    try {
      await c.query('BEGIN');
      const defs = [...(await secondaryIndexes(c, 'conversations')), ...(await secondaryIndexes(c, 'conversation_parts'))];
      for (const d of defs) await c.query(`DROP INDEX ${c.escapeIdentifier(d.name)}`);
      await c.query(SEED_CONVERSATIONS, [tenantId, channelId, rows]);
      await c.query(SEED_PARTS, [tenantId]);
      await c.query("SET LOCAL maintenance_work_mem = '256MB'");
      for (const d of defs) await c.query(d.def);
      await c.query('COMMIT');
    } catch {
      await c.query('ROLLBACK').catch(() => undefined);
      method = 'INSERT … SELECT generate_series';
      await c.query(SEED_CONVERSATIONS, [tenantId, channelId, rows]);
      await c.query(SEED_PARTS, [tenantId]);
    }
    await c.query('VACUUM ANALYZE conversations').catch(() => c.query('ANALYZE conversations'));
    await c.query('VACUUM ANALYZE conversation_parts').catch(() => c.query('ANALYZE conversation_parts'));
    await c.query('CHECKPOINT').catch(() => undefined);
    return { method, seconds: (performance.now() - started) / 1000 };
  } finally {
    await c.end();
  }
}

export const search: Scenario = {
  name: 'search',
  needsService: true,
  async run(ctx) {
    const svc = await ctx.service();
    const t = await ctx.tenant('search');
    const rows = ctx.sizes.searchConversations;
    const boot = await ctx.boot();
    const s = await seed(ctx.dbs.mainUrl, t.workspaceId, t.channelId, rows);
    const parts = rows * PARTS_PER_CONVERSATION;
    ctx.log(
      `search: seeded ${rows.toLocaleString('en-US')} conversations and ${parts.toLocaleString('en-US')} parts in ${s.seconds.toFixed(1)} s (${s.method})`,
    );
    const query = {
      operator: 'AND',
      value: [
        { field: 'state', operator: '=', value: 'open' },
        { field: 'body', operator: '~', value: SEARCH_TERM },
      ],
    };
    const body = JSON.stringify({ query });
    const rare = JSON.stringify({
      query: {
        operator: 'AND',
        value: [
          { field: 'state', operator: '=', value: 'open' },
          { field: 'body', operator: '~', value: RARE_TERM },
        ],
      },
    });
    const listPath = '/api/conversations';
    const searchPath = '/api/conversations/search';
    // The search must answer a full first page (checked once, not timed).
    const check = await boot.http('POST', searchPath, { query }, auth(t));
    if (check.status !== 200 || check.body?.data?.length !== 20) throw new Error(`search answered ${check.status}: ${check.text.slice(0, 300)}`);
    const timed = await interleaved(ctx, {
      url: svc.url,
      paths: [listPath, searchPath, searchPath],
      bodies: [null, body, rare],
      headers: auth(t),
      durationS: 3 * ctx.sizes.latencyS,
      warmupS: ctx.sizes.warmupS,
    });
    const [first, found, rareFound] = timed.latencyMs as [LatencySummary, LatencySummary, LatencySummary];
    if (timed.non2xx.some((x) => x > 0)) throw new Error(`a route answered non-2xx during the run: ${timed.sampleError ?? ''}`);
    return [
      row({
        scenario: 'search',
        figure: `p50 POST /api/conversations/search (state = open AND body ~ "${SEARCH_TERM}") over ${parts.toLocaleString('en-US')} parts`,
        unit: 'ms',
        ours: found.p50,
        baselineLabel: 'GET /api/conversations first page p50',
        baseline: first.p50,
        target: { kind: 'ratio<=', value: 5 },
        note: `${rows.toLocaleString('en-US')} conversations and ${parts.toLocaleString('en-US')} parts bulk-inserted straight into the read models of one workspace (${s.method}; ${s.seconds.toFixed(1)} s), not through the API; each part holds 3 of ${WORDS.length} words, so "${SEARCH_TERM}" is in about 7% of parts; per_page=20; list, search and rare-term search requests take turns on 1 connection (${timed.ok.join(' + ')} timed)`,
        details: {
          search_ms: found,
          rare_search_ms: rareFound,
          first_ms: first,
          requests: timed.ok,
          seconds: timed.durationS,
          conversations: rows,
          parts,
          seed: s,
        },
      }),
      row({
        scenario: 'search',
        figure: `p50 POST /api/conversations/search (state = open AND body ~ "${RARE_TERM}", a word of about 1 part in 10,000)`,
        unit: 'ms',
        ours: rareFound.p50,
        baselineLabel: 'GET /api/conversations first page p50',
        baseline: first.p50,
        target: { kind: 'none' },
        note: 'the rare case: the index probe finds the few conversations and the page lists them by id',
      }),
    ];
  },
};
