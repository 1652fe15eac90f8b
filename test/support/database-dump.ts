// What a database holds, as an auditor would look: every row of every table of
// the schema, as text (bytea as hex), searched for marker strings that went in
// through the API. Shared by the erasure tests: after an erasure the markers of
// the erased data must be nowhere, while others still are (so the search is
// shown to find them).
import { expect } from 'chai';
import type { Knex } from 'knex';

/** Every row of every table in the schema, as text (bytea shows as hex, so markers are looked for in hex too). */
export async function dumpDatabase(db: Knex): Promise<string> {
  const tables = (await db.raw("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).rows as { tablename: string }[];
  expect(tables.map((t) => t.tablename)).to.include.members(['events', 'feed_events', 'webhook_deliveries', 'idempotency_keys', 'data_keys', 'users']);
  const parts: string[] = [];
  for (const { tablename } of tables) {
    const r = await db.raw(`SELECT coalesce(string_agg(t::text, E'\\n'), '') AS rows FROM "${tablename}" t`);
    parts.push(`-- ${tablename}\n${r.rows[0].rows as string}`);
  }
  return parts.join('\n');
}

/** The markers found in the dump, each named with the table it was found in. */
export function findMarkers(dump: string, markers: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [name, m] of Object.entries(markers)) {
    if (dump.includes(m) || dump.includes(Buffer.from(m, 'utf8').toString('hex'))) {
      const at = dump.indexOf(m) >= 0 ? dump.indexOf(m) : dump.indexOf(Buffer.from(m, 'utf8').toString('hex'));
      const table = dump.slice(0, at).match(/-- (\w+)\n(?![\s\S]*-- \w+\n)/)?.[1];
      found.push(`${name} in ${table}`);
    }
  }
  return found;
}
