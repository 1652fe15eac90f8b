// Set-based writes for projectors. A batch of events is folded in memory into
// one row per key (an insert, or a patch of an existing row), then written as
// one statement per table (and per patch shape), whatever the batch size. Rows
// travel as one JSON parameter through jsonb_to_recordset, so there is no
// bind-parameter limit and the column types are declared once, here.
//
// The statements are handed to a Writes collector rather than run: the engine
// sends every projector's writes and the checkpoint move as ONE statement of
// data-modifying CTEs. Round trips, not rows, are what a command pays for
// (each costs a socket write on both sides). That is sound because a batch
// touches each row at most once per table: an insert and its later patches
// fold into one row.
import type { Knex } from 'knex';

export interface TableSpec {
  table: string;
  key: readonly string[];
  /** every column written, key columns included, with its Postgres type */
  columns: Readonly<Record<string, string>>;
}

type Row = Record<string, unknown>;

export interface Statement {
  sql: string;
  bindings: Knex.RawBinding[];
}

/**
 * What one projection pass writes: a batch per table (projectors fold events
 * into them) and raw statements, sent in order as one round trip.
 */
export class Writes {
  private readonly list: (Statement | TableBatch)[] = [];
  private readonly tables = new Map<string, TableBatch>();

  /** The batch of a table; projectors fold their events into it. */
  table(spec: TableSpec): TableBatch {
    let b = this.tables.get(spec.table);
    if (!b) {
      b = new TableBatch(spec);
      this.tables.set(spec.table, b);
      this.list.push(b);
    }
    return b;
  }

  add(...statements: Statement[]): void {
    this.list.push(...statements);
  }

  /** The batches folded so far (projector unit tests read them without a database). */
  batches(): TableBatch[] {
    return [...this.tables.values()];
  }

  statements(): Statement[] {
    const list = this.list.splice(0).flatMap((w) => (w instanceof TableBatch ? w.statements() : [w]));
    this.tables.clear();
    return list;
  }

  async run(db: Knex.Transaction): Promise<void> {
    const list = this.statements();
    if (list.length === 0) return;
    if (list.length === 1) {
      await db.raw(list[0]!.sql, list[0]!.bindings);
      return;
    }
    await db.raw(`WITH ${list.map((s, i) => `w${i} AS (${s.sql})`).join(', ')} SELECT 1`, list.flatMap((s) => s.bindings));
  }
}

/** One row's folded writes: inserted (upsert), patched (set and increments) or deleted. */
export interface PendingRow {
  key: Row;
  insert: Row | null;
  set: Row;
  inc: Record<string, number>;
  deleted: boolean;
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

export class TableBatch {
  private readonly pending = new Map<string, PendingRow>();

  constructor(readonly spec: TableSpec) {}

  /** The folded rows, in first-touched order. */
  pendingRows(): PendingRow[] {
    return [...this.pending.values()];
  }

  private entry(row: Row): PendingRow {
    const id = this.spec.key.map((k) => String(row[k])).join('\u0000');
    let p = this.pending.get(id);
    if (!p) {
      p = { key: Object.fromEntries(this.spec.key.map((k) => [k, row[k]])), insert: null, set: {}, inc: {}, deleted: false };
      this.pending.set(id, p);
    }
    return p;
  }

  /** Inserts (or replaces) the row with these columns. */
  insert(row: Row): void {
    const p = this.entry(row);
    p.insert = { ...row };
    p.set = {};
    p.inc = {};
    p.deleted = false; // the insert is an upsert: it replaces a row deleted earlier in the batch
  }

  /** Deletes the row with this key; later patches in the batch have nothing to change. */
  delete(key: Row): void {
    const p = this.entry(key);
    p.insert = null;
    p.set = {};
    p.inc = {};
    p.deleted = true;
  }

  /** Sets columns and adds to counters of the row with this key; folds into a pending insert. */
  patch(key: Row, set: Row, inc: Record<string, number> = {}): void {
    const p = this.entry(key);
    if (p.deleted) return;
    if (p.insert) {
      Object.assign(p.insert, set);
      for (const [c, n] of Object.entries(inc)) p.insert[c] = Number(p.insert[c] ?? 0) + n;
      return;
    }
    Object.assign(p.set, set);
    for (const [c, n] of Object.entries(inc)) p.inc[c] = (p.inc[c] ?? 0) + n;
  }

  private recordType(cols: string[]): string {
    return cols.map((c) => `${ident(c)} ${this.spec.columns[c]}`).join(', ');
  }

  /** The statements that write everything folded so far; the batch is empty afterwards. */
  statements(): Statement[] {
    const out: Statement[] = [];
    const inserts: Row[] = [];
    const deletes: Row[] = [];
    const patches = new Map<string, Row[]>();
    for (const p of this.pending.values()) {
      if (p.deleted) {
        deletes.push(p.key);
        continue;
      }
      if (p.insert) {
        inserts.push(p.insert);
        continue;
      }
      const setCols = Object.keys(p.set).sort();
      const incCols = Object.keys(p.inc).sort();
      const shape = `${setCols.join(',')}|${incCols.join(',')}`;
      const list = patches.get(shape) ?? [];
      list.push({ ...p.key, ...p.set, ...p.inc });
      patches.set(shape, list);
    }
    this.pending.clear();
    const t = ident(this.spec.table);
    const keyMatch = this.spec.key.map((k) => `${t}.${ident(k)} = v.${ident(k)}`).join(' AND ');

    if (deletes.length) {
      out.push({
        sql: `DELETE FROM ${t} USING jsonb_to_recordset(?::jsonb) AS v(${this.recordType([...this.spec.key])}) WHERE ${keyMatch}`,
        bindings: [JSON.stringify(deletes)],
      });
    }
    if (inserts.length) {
      const cols = Object.keys(this.spec.columns);
      const rest = cols.filter((c) => !this.spec.key.includes(c));
      const list = cols.map(ident).join(', ');
      out.push({
        sql: `INSERT INTO ${t} (${list}) SELECT ${list} FROM jsonb_to_recordset(?::jsonb) AS v(${this.recordType(cols)})
         ON CONFLICT (${this.spec.key.map(ident).join(', ')}) DO UPDATE SET ${rest.map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`).join(', ')}`,
        bindings: [JSON.stringify(inserts.map((r) => Object.fromEntries(cols.map((c) => [c, r[c] ?? null]))))],
      });
    }
    for (const [shape, rows] of patches) {
      const [setPart, incPart] = shape.split('|');
      const setCols = setPart ? setPart.split(',') : [];
      const incCols = incPart ? incPart.split(',') : [];
      const assignments = [...setCols.map((c) => `${ident(c)} = v.${ident(c)}`), ...incCols.map((c) => `${ident(c)} = ${t}.${ident(c)} + v.${ident(c)}`)];
      if (assignments.length === 0) continue;
      out.push({
        sql: `UPDATE ${t} SET ${assignments.join(', ')} FROM jsonb_to_recordset(?::jsonb) AS v(${this.recordType([...this.spec.key, ...setCols, ...incCols])}) WHERE ${keyMatch}`,
        bindings: [JSON.stringify(rows)],
      });
    }
    return out;
  }
}
