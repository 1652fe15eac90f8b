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
  /** the key matches many rows (a batch that only deletes by it): indexed, not unique */
  matches?: 'many';
  /** the columns that take NULL; every other column is NOT NULL (both checked against the table) */
  nullable?: readonly string[];
}

/** What node-postgres reads a column of this Postgres type as (bigint as a number: src/platform/db/database.ts); jsonb is the reader's to type. */
type ColumnValue<T> = T extends 'uuid' | 'text'
  ? string
  : T extends 'bigint' | 'int' | 'integer' | 'smallint'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'timestamptz'
        ? Date
        : T extends 'text[]' | 'uuid[]'
          ? string[]
          : unknown;

/**
 * A row of a spec's table as read back: each column its type, `| null` where the spec says it takes NULL (a
 * check holds the spec to the table: test/projections/table-specs.int.test.ts). A reader narrows what the table
 * cannot say (a text column of a few literals, a jsonb column's shape) by intersecting: `RowOf<typeof X> & {…}`.
 */
export type RowOf<S extends TableSpec> = {
  -readonly [K in keyof S['columns']]: ColumnValue<S['columns'][K]> | (K extends NullableOf<S> ? null : never);
};

/** The spec's nullable columns (none when it lists none). */
type NullableOf<S> = S extends { nullable: readonly (infer N)[] } ? N : never;

/** Every table spec declared through tableSpec(), in declaration order: a test checks each against the real table. */
const declared: TableSpec[] = [];

/** Declares a read-model table's spec (returned as given, for its literal types) and records it for that check. */
export function tableSpec<const T extends TableSpec>(spec: T): T {
  declared.push(spec);
  return spec;
}

/** The specs declared so far (import the capabilities first: each declares its own). */
export const declaredTableSpecs = (): readonly TableSpec[] => [...declared];

type Row = Record<string, unknown>;

export interface Statement {
  sql: string;
  bindings: Knex.RawBinding[];
}

/** A spec's batch in a pass: its table and key (specs are constants: worked out once each, not on every pass). */
const batchIds = new WeakMap<TableSpec, string>();
function batchId(spec: TableSpec): string {
  let id = batchIds.get(spec);
  if (id === undefined) batchIds.set(spec, (id = `${spec.table}(${spec.key.join(',')})${spec.matches ?? ''}`));
  return id;
}

/**
 * What one projection pass writes: a batch per table and key (projectors fold
 * events into them) and raw statements, sent in order as one round trip.
 */
export class Writes {
  private readonly list: (Statement | TableBatch)[] = [];
  private readonly tables = new Map<string, TableBatch>();

  /**
   * The batch of a table by a key; projectors fold their events into it. Specs of one table and one key share
   * a batch (so their writes fold together); a spec by another key (a delete of many rows: `matches`) is a batch
   * of its own, sent after the ones asked for before it.
   */
  table(spec: TableSpec): TableBatch {
    const id = batchId(spec);
    let b = this.tables.get(id);
    if (!b) {
      b = new TableBatch(spec);
      this.tables.set(id, b);
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
    await db.raw(
      `WITH ${list.map((s, i) => `w${i} AS (${s.sql})`).join(', ')} SELECT 1`,
      list.flatMap((s) => s.bindings),
    );
  }
}

/** What a batch adds to and removes from a set-valued (array) column of an existing row; never both for one value. */
export interface SetDelta {
  add: string[];
  remove: string[];
}

/** One row's folded writes: inserted (upsert), patched (set, increments, set-column deltas) or deleted. */
export interface PendingRow {
  key: Row;
  insert: Row | null;
  set: Row;
  inc: Record<string, number>;
  /** per array column: members to add and to remove, applied to the stored value (see addTo/removeFrom) */
  members: Record<string, SetDelta>;
  deleted: boolean;
  /**
   * A row only patched that a deleteWhere may have caught, by columns the batch did not set: it is deleted
   * if its stored row holds every value of any of these (column → value), and patched otherwise.
   */
  deleteIf: Row[];
}

/**
 * A set-valued column after a folded delta, as the UPDATE computes it: removed members dropped (the rest
 * keep their order), then added ones appended: those not there, and those removed in the same delta (a
 * tag taken off and put back goes to the end, as it would one event at a time).
 */
export const applySetDelta = (current: readonly string[], d: SetDelta): string[] => [
  ...current.filter((v) => !d.remove.includes(v)),
  ...d.add.filter((v) => !current.includes(v) || d.remove.includes(v)),
];

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** The column of a recordset row naming the values a stored row must hold to be deleted (PendingRow.deleteIf). */
const IF = '__delete_if';

export class TableBatch {
  private readonly pending = new Map<string, PendingRow>();
  /** every deleteWhere of the batch, in order: the rows the batch does not otherwise touch go by them */
  private readonly wheres: Row[] = [];

  constructor(readonly spec: TableSpec) {}

  /** The folded rows, in first-touched order. */
  pendingRows(): PendingRow[] {
    return [...this.pending.values()];
  }

  /** The batch's deleteWhere matches, in order: what they delete of the rows it does not otherwise write. */
  deletedWhere(): Row[] {
    return [...this.wheres];
  }

  private entry(row: Row): PendingRow {
    const key = this.spec.key;
    // Most keys are (tenant_id, id): spelled out, as a rebuild asks this for every row it folds.
    const id = key.length === 2 ? `${row[key[0]!]}\u0000${row[key[1]!]}` : key.map((k) => String(row[k])).join('\u0000');
    let p = this.pending.get(id);
    if (!p) {
      p = { key: Object.fromEntries(this.spec.key.map((k) => [k, row[k]])), insert: null, set: {}, inc: {}, members: {}, deleted: false, deleteIf: [] };
      this.pending.set(id, p);
      // Its stored row met the batch's earlier deleteWheres first.
      for (const match of this.wheres) this.caughtBy(p, match);
    }
    return p;
  }

  /** Inserts (or replaces) the row with these columns. */
  insert(row: Row): void {
    const p = this.entry(row);
    p.insert = { ...row };
    p.set = {};
    p.inc = {};
    p.members = {};
    p.deleted = false; // the insert is an upsert: it replaces a row deleted earlier in the batch
    p.deleteIf = [];
  }

  /** Deletes the row with this key; later patches in the batch have nothing to change. */
  delete(key: Row): void {
    const p = this.entry(key);
    p.insert = null;
    p.set = {};
    p.inc = {};
    p.members = {};
    p.deleted = true;
    p.deleteIf = [];
  }

  /**
   * Deletes every row holding these values (column → value; `tenant_id` among them), whatever its key: a
   * member's private views when the member goes. Statements of one pass see none of each other's writes,
   * so it is folded in order like the rest: a row the batch already wrote is decided on what it wrote (its
   * stored columns, for those a patch did not set), a row it writes later starts from its fate here, and
   * the rows it does not touch go by one DELETE. Only on columns set whole (not counters or set-valued
   * ones) whose JSON is their text in Postgres (uuid, text, boolean, integer).
   */
  deleteWhere(match: Row): void {
    for (const p of this.pending.values()) this.caughtBy(p, match);
    this.wheres.push({ ...match });
  }

  /** A row's fate under a deleteWhere: untouched, deleted, or deleted if its stored row holds what the batch did not set. */
  private caughtBy(p: PendingRow, match: Row): void {
    if (p.deleted) return;
    const known: Row = p.insert ?? { ...p.set, ...p.key };
    const stored: Row = {};
    for (const [c, v] of Object.entries(match)) {
      if (c in p.inc || c in p.members) throw new Error(`${this.spec.table}: deleteWhere on ${c}, which this batch changes by a delta`);
      if (p.insert || c in known) {
        if ((known[c] ?? null) !== v) return;
      } else stored[c] = v;
    }
    if (Object.keys(stored).length === 0) this.delete(p.key);
    else p.deleteIf.push(stored);
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
    for (const c of Object.keys(set)) delete p.members[c]; // a whole new value replaces earlier deltas
    for (const [c, n] of Object.entries(inc)) p.inc[c] = (p.inc[c] ?? 0) + n;
  }

  /**
   * Adds members to a set-valued (array) column, or removes them, without knowing the stored value: a
   * tag added to a conversation is a delta, so two writers never overwrite each other's tags. Folded in
   * order: into a pending insert or set value directly, otherwise into one add/remove pair per column
   * that the UPDATE applies to the stored array.
   */
  addTo(key: Row, column: string, values: readonly string[]): void {
    this.member(key, column, { add: [...values], remove: [] });
  }

  removeFrom(key: Row, column: string, values: readonly string[]): void {
    this.member(key, column, { add: [], remove: [...values] });
  }

  private member(key: Row, column: string, d: SetDelta): void {
    const p = this.entry(key);
    if (p.deleted) return;
    const whole = p.insert ?? (column in p.set ? p.set : null);
    if (whole) {
      whole[column] = applySetDelta((whole[column] as string[] | null) ?? [], d);
      return;
    }
    const acc = (p.members[column] ??= { add: [], remove: [] });
    for (const v of d.remove) {
      acc.add = acc.add.filter((a) => a !== v); // added earlier in this batch: gone again
      if (!acc.remove.includes(v)) acc.remove.push(v);
    }
    // Added after a removal in this batch: stays in `remove` and is appended (it moves to the end).
    for (const v of d.add) if (!acc.add.includes(v)) acc.add.push(v);
  }

  private recordType(cols: string[]): string {
    return cols.map((c) => `${ident(c)} ${this.spec.columns[c]}`).join(', ');
  }

  /** The statements that write everything folded so far; the batch is empty afterwards. */
  statements(): Statement[] {
    const out: Statement[] = [];
    const inserts: Row[] = [];
    const deletes: Row[] = [];
    const deletesIf: Row[] = [];
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
      const conditional = p.deleteIf.length > 0;
      if (conditional) deletesIf.push({ ...p.key, [IF]: p.deleteIf });
      const setCols = Object.keys(p.set).sort();
      const incCols = Object.keys(p.inc).sort();
      const memberCols = Object.keys(p.members).sort();
      const shape = `${setCols.join(',')}|${incCols.join(',')}|${memberCols.join(',')}|${conditional ? IF : ''}`;
      const list = patches.get(shape) ?? [];
      const deltas = Object.fromEntries(
        memberCols.flatMap((c) => [
          [`${c}__add`, p.members[c]!.add],
          [`${c}__remove`, p.members[c]!.remove],
        ]),
      );
      list.push({ ...p.key, ...p.set, ...p.inc, ...deltas, ...(conditional ? { [IF]: p.deleteIf } : {}) });
      patches.set(shape, list);
    }
    const touched = [...this.pending.values()].map((p) => p.key);
    const wheres = this.wheres.splice(0);
    this.pending.clear();
    const t = ident(this.spec.table);
    const keyMatch = this.spec.key.map((k) => `${t}.${ident(k)} = v.${ident(k)}`).join(' AND ');
    // The stored row holds every value of one of the row's deleteIf objects (jsonb containment).
    const storedMatches = `EXISTS (SELECT 1 FROM jsonb_array_elements(v.${ident(IF)}) AS m(values) WHERE to_jsonb(${t}) @> m.values)`;

    if (deletes.length) {
      out.push({
        sql: `DELETE FROM ${t} USING jsonb_to_recordset(?::jsonb) AS v(${this.recordType([...this.spec.key])}) WHERE ${keyMatch}`,
        bindings: [JSON.stringify(deletes)],
      });
    }
    if (deletesIf.length) {
      out.push({
        sql: `DELETE FROM ${t} USING jsonb_to_recordset(?::jsonb) AS v(${this.recordType([...this.spec.key])}, ${ident(IF)} jsonb) WHERE ${keyMatch} AND ${storedMatches}`,
        bindings: [JSON.stringify(deletesIf)],
      });
    }
    // The rows the batch does not touch, by their stored values (those it touches were decided above).
    const byColumns = new Map<string, Row[]>();
    for (const w of wheres) {
      const cols = Object.keys(w).sort().join(',');
      byColumns.set(cols, [...(byColumns.get(cols) ?? []), w]);
    }
    for (const [cols, matches] of byColumns) {
      const columns = cols.split(',');
      const untouched = touched.length
        ? ` AND NOT EXISTS (SELECT 1 FROM jsonb_to_recordset(?::jsonb) AS k(${this.recordType([...this.spec.key])}) WHERE ${this.spec.key.map((k) => `${t}.${ident(k)} = k.${ident(k)}`).join(' AND ')})`
        : '';
      out.push({
        sql: `DELETE FROM ${t} USING jsonb_to_recordset(?::jsonb) AS w(${this.recordType(columns)}) WHERE ${columns.map((c) => `${t}.${ident(c)} = w.${ident(c)}`).join(' AND ')}${untouched}`,
        bindings: [JSON.stringify(matches), ...(touched.length ? [JSON.stringify(touched)] : [])],
      });
    }
    if (inserts.length) {
      const cols = Object.keys(this.spec.columns);
      const rest = cols.filter((c) => !this.spec.key.includes(c));
      const list = cols.map(ident).join(', ');
      out.push({
        sql: `INSERT INTO ${t} (${list}) SELECT ${list} FROM jsonb_to_recordset(?::jsonb) AS v(${this.recordType(cols)})
         ON CONFLICT (${this.spec.key.map(ident).join(', ')}) DO UPDATE SET ${rest.map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`).join(', ')}`,
        // The rows as they are: jsonb_to_recordset reads the declared columns only, and a key that is
        // missing (or undefined, which JSON leaves out) is NULL, as an explicit null would be.
        bindings: [JSON.stringify(inserts)],
      });
    }
    for (const [shape, rows] of patches) {
      const [setPart, incPart, memberPart, conditional] = shape.split('|');
      const setCols = setPart ? setPart.split(',') : [];
      const incCols = incPart ? incPart.split(',') : [];
      const memberCols = memberPart ? memberPart.split(',') : [];
      const assignments = [
        ...setCols.map((c) => `${ident(c)} = v.${ident(c)}`),
        ...incCols.map((c) => `${ident(c)} = ${t}.${ident(c)} + v.${ident(c)}`),
        // As applySetDelta: stored order kept, removed members dropped, added ones appended once.
        ...memberCols.map(
          (c) =>
            `${ident(c)} = ARRAY(SELECT m FROM unnest(${t}.${ident(c)}) WITH ORDINALITY AS s(m, i) WHERE m <> ALL(v.${ident(`${c}__remove`)}) ORDER BY i)` +
            ` || ARRAY(SELECT m FROM unnest(v.${ident(`${c}__add`)}) WITH ORDINALITY AS a(m, i) WHERE m <> ALL(${t}.${ident(c)}) OR m = ANY(v.${ident(`${c}__remove`)}) ORDER BY i)`,
        ),
      ];
      if (assignments.length === 0) continue;
      const deltaTypes = memberCols.flatMap((c) => [`${ident(`${c}__add`)} ${this.spec.columns[c]}`, `${ident(`${c}__remove`)} ${this.spec.columns[c]}`]);
      const ifType = conditional ? [`${ident(IF)} jsonb`] : [];
      out.push({
        sql: `UPDATE ${t} SET ${assignments.join(', ')} FROM jsonb_to_recordset(?::jsonb) AS v(${[this.recordType([...this.spec.key, ...setCols, ...incCols]), ...deltaTypes, ...ifType].join(', ')}) WHERE ${keyMatch}${conditional ? ` AND NOT ${storedMatches}` : ''}`,
        bindings: [JSON.stringify(rows)],
      });
    }
    return out;
  }
}
