// Any past state (issue 29, item 6): the rows a projector would hold had the
// log ended at some seq, folded in memory from the events up to it, by the
// projector itself. Nothing is written: the fold is the read model's own logic,
// applied to the events the caller read (an aggregate's, from its creation).
import type { StoredEvent } from '../eventstore/envelope.js';
import type { Projector } from './projector.js';
import { Writes, type TableSpec } from './table-batch.js';

type Row = Record<string, unknown>;

/**
 * Folds `events` (in seq order) through `projectors` as one batch and answers,
 * per table, the rows it leaves: those the events inserted, with every later
 * change folded in (a row only patched was made by events not read, and is not
 * there). Columns read as the driver reads them: every column of the table's
 * spec present (null when unset), timestamps as Date.
 */
export function foldInMemory(projectors: readonly Projector<any>[], events: readonly StoredEvent[]): (table: string) => Row[] {
  const writes = new Writes();
  for (const p of projectors) {
    const mine = events.filter((e) => p.handles.includes('*') || p.handles.includes(e.type));
    if (mine.length > 0) p.project(mine, writes);
  }
  const byTable = new Map<string, Row[]>();
  for (const batch of writes.batches()) {
    const rows = batch.pendingRows().flatMap((p) => (!p.deleted && p.insert ? [asRead(batch.spec, p.insert)] : []));
    byTable.set(batch.spec.table, rows);
  }
  return (table) => byTable.get(table) ?? [];
}

function asRead(spec: TableSpec, row: Row): Row {
  return Object.fromEntries(
    Object.entries(spec.columns).map(([column, type]) => {
      const v = row[column] ?? null;
      return [column, type === 'timestamptz' && v !== null && !(v instanceof Date) ? new Date(v as string) : v];
    }),
  );
}
