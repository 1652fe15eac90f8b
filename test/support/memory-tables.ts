// Projector unit tests without a database: a projector folds events into
// Writes; this applies the folded rows to in-memory tables with the same
// meaning the SQL has (insert = upsert of the whole row, patch = set columns
// and add to counters of an existing row, delete, delete where: decided on the
// rows as they were before the batch, as every statement of a pass sees them).
import type { NewEvent, StoredEvent } from '../../src/eventstore/envelope.js';
import type { Projector } from '../../src/projections/projector.js';
import { applySetDelta, Writes } from '../../src/projections/table-batch.js';

type Row = Record<string, unknown>;

export class MemoryTables {
  private readonly tables = new Map<string, Map<string, Row>>();
  private seq = 0;

  constructor(
    private readonly projectors: readonly Projector<any>[],
    readonly tenantId = '00000000-0000-4000-8000-0000000000aa',
  ) {}

  /** Stores events as the log would (seq, id, time) and projects them, in one batch. */
  given(...events: NewEvent[]): this {
    const stored: StoredEvent[] = events.map((e) => {
      const seq = ++this.seq;
      return {
        ...e,
        tenant_id: this.tenantId,
        seq,
        id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
        metadata: {},
        position: String(seq),
      };
    });
    const writes = new Writes();
    for (const p of this.projectors) {
      const mine = stored.filter((e) => p.handles.includes('*') || p.handles.includes(e.type));
      if (mine.length) p.project(mine, writes);
    }
    for (const batch of writes.batches()) {
      const table = this.tables.get(batch.spec.table) ?? new Map<string, Row>();
      this.tables.set(batch.spec.table, table);
      const keyOf = (row: Row) => JSON.stringify(batch.spec.key.map((k) => row[k]));
      const holds = (row: Row | undefined, values: Row) => row !== undefined && Object.entries(values).every(([c, v]) => row[c] === v);
      const touched = new Set(batch.pendingRows().map((p) => keyOf(p.key)));
      for (const match of batch.deletedWhere()) for (const [key, row] of table) if (!touched.has(key) && holds(row, match)) table.delete(key);
      for (const p of batch.pendingRows()) {
        const key = keyOf(p.key);
        if (p.deleted || p.deleteIf.some((values) => holds(table.get(key), values))) table.delete(key);
        else if (p.insert) table.set(key, Object.fromEntries(Object.keys(batch.spec.columns).map((c) => [c, p.insert![c] ?? null])));
        else {
          const row = table.get(key);
          if (!row) continue; // an UPDATE of a missing row changes nothing
          Object.assign(row, p.set);
          for (const [c, n] of Object.entries(p.inc)) row[c] = Number(row[c] ?? 0) + n;
          for (const [c, d] of Object.entries(p.members)) row[c] = applySetDelta((row[c] as string[] | null) ?? [], d);
        }
      }
    }
    return this;
  }

  rows(table: string): Row[] {
    return [...(this.tables.get(table)?.values() ?? [])];
  }

  row(table: string, where: Row): Row | undefined {
    return this.rows(table).find((r) => Object.entries(where).every(([k, v]) => r[k] === v));
  }
}
