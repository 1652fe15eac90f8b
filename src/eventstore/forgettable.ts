// Personal data the log can forget: crypto-shredding.
//
// An immutable, gapless log cannot delete an event, and EventStoreDB cannot
// delete from the middle of a stream. So personal fields never enter the log
// in plaintext: each subject (a contact, a conversation, a part, a member, an
// invite) has its own data key, kept beside the log in `data_keys` and wrapped
// by the service's key. The catalogue says which payload fields are personal
// and whose key seals them (EventDef.personal); the shell seals them before the
// append; readers open them. Deleting a subject's key row forgets every copy
// sealed with it at once: the events, the feed table and delivery records
// (which copy the sealed payload), and stored answers and export files (which
// keep personal values as sealed tokens, see `shred`). What cannot be opened
// reads as null, never as an error, so a replay after an erasure reproduces the
// erased state and a rebuild equals the live read models.
//
// Stored forms:
//   event payload  {...clear fields, "$sealed": {"s": subject, "f": [fields], "c": ciphertext}}
//   any value      {"$sealed_value": {"s": subject, "c": ciphertext, "e"?: erased value}}   (answers, exports)
// The ciphertext is AES-256-GCM under the subject's data key with the tenant
// and subject as associated data, so a value copied elsewhere does not open.
import { randomBytesPooled } from '../platform/crypto/random.js';
import type { Knex } from 'knex';
import { openWith, sealWith, type Sealer } from '../platform/crypto/seal.js';
import { SEALED, type EventCatalogue } from './catalogue.js';
import type { PendingEvent } from './envelope.js';

export { SEALED };
export const SEALED_VALUE = '$sealed_value';

type Db = Knex | Knex.Transaction;
type Json = Record<string, unknown>;

/** An object type of answers and exports whose fields are one subject's personal data. */
export interface PersonalObject {
  /** the object's `type` member (contact, conversation_part, member, ...) */
  type: string;
  /** the subject kind its `id` names */
  kind: string;
  fields: readonly string[];
  /** what a field reads as once erased, where not null (a part's attachments: an empty list) */
  erased?: Record<string, unknown>;
}

export interface Statement {
  sql: string;
  bindings: unknown[];
}

interface SealedPayload {
  s: string;
  f: string[];
  c: string;
}

/** Keys by tenant and subject; a missing entry is a subject without a key (erased, or never sealed). */
type Keyring = Map<string, Buffer>;
const ringKey = (tenantId: string, subject: string) => `${tenantId}|${subject}`;

/** How many committed data keys a process keeps for sealing (not for opening: see `recent`). */
const RECENT_MAX = 10_000;

export class Forgettable {
  private readonly objects: Map<string, PersonalObject>;
  /**
   * Data keys this process created and saw committed, for SEALING only (new events of a subject, stored
   * answers), so the write path does not look up the keys it just made. Never used to open: opening always
   * reads `data_keys`, so an erasure in any process is honoured at once. Sealing with a key another process
   * has since destroyed only makes the new copy unreadable, which is what the erasure asked for.
   */
  private readonly recent = new Map<string, Buffer>();

  constructor(
    private readonly catalogue: EventCatalogue,
    private readonly sealer: Sealer,
    objects: readonly PersonalObject[],
  ) {
    this.objects = new Map(objects.map((o) => [o.type, o]));
  }

  /**
   * Seals the personal fields of events about to be appended. Returns the events
   * as the log keeps them and the statements that store the data keys created
   * for them (run them in the append's transaction: a key must never outlive
   * or predate its events' commit by more than that). A subject whose first
   * event this is (`fresh`) gets a new key without a lookup; others come from
   * the committed keys this process remembers, else one lookup for the batch.
   * The keys it creates are added to `newKeys`: hand them to `remember` once
   * the transaction has committed.
   */
  async seal(
    db: Db,
    tenantId: string,
    events: readonly PendingEvent[],
    newKeys?: Map<string, Buffer>,
    stored?: ReadonlyMap<string, Buffer>,
  ): Promise<{ events: PendingEvent[]; keyWrites: Statement[] }> {
    const ring: Keyring = new Map(stored);
    const created: { subject: string; owner: string | null; wrapped: string }[] = [];
    const plans = events.map((e) => {
      const spec = this.catalogue.get(e.type)?.personal;
      if (!spec) return null;
      const subject = `${spec.kind}:${String(e.payload[spec.id])}`;
      const owner = spec.owner ? `${spec.owner.kind}:${String(e.payload[spec.owner.id])}` : null;
      const fields = spec.fields.filter((f) => e.payload[f] !== undefined && e.payload[f] !== null);
      if (spec.fresh && !ring.has(ringKey(tenantId, subject))) {
        const key = randomBytesPooled(32);
        ring.set(ringKey(tenantId, subject), key);
        newKeys?.set(ringKey(tenantId, subject), key);
        created.push({ subject, owner, wrapped: this.wrap(tenantId, subject, key) });
      }
      return fields.length ? { subject, owner, fields } : null;
    });
    for (const p of plans) {
      const k = p && !ring.has(ringKey(tenantId, p.subject)) ? this.recent.get(ringKey(tenantId, p.subject)) : undefined;
      if (k) ring.set(ringKey(tenantId, p!.subject), k);
    }
    const lookup = [...new Set(plans.flatMap((p) => (p && !ring.has(ringKey(tenantId, p.subject)) ? [p.subject] : [])))];
    if (lookup.length) {
      const found = await this.fetchKeys(
        db,
        lookup.map((s) => [tenantId, s]),
      );
      // A key that is there but does not unwrap means this process has another service key than the one
      // that wrapped it (SERVICE_SECRETS_KEY / DATA_DIR differ): sealing with a new key would lose the data.
      if (found.unopenable.length)
        throw new Error(`data keys of ${found.unopenable.join(', ')} do not open with this process's service key (SERVICE_SECRETS_KEY)`);
      for (const [k, v] of found.ring) ring.set(k, v);
      // A subject sealed for the first time by an event not marked fresh (data from before sealing existed).
      for (const p of plans) {
        if (!p || ring.has(ringKey(tenantId, p.subject))) continue;
        const key = randomBytesPooled(32);
        ring.set(ringKey(tenantId, p.subject), key);
        newKeys?.set(ringKey(tenantId, p.subject), key);
        created.push({ subject: p.subject, owner: p.owner, wrapped: this.wrap(tenantId, p.subject, key) });
      }
    }
    const sealed = events.map((e, i) => {
      const plan = plans[i];
      if (!plan) return e;
      // Split by copying, not by `delete` on a copy: a deleted member turns an object into a dictionary, slow
      // to spread and to stringify on the write path (docs/performance.md, "Where the service's CPU went").
      const secret: Json = {};
      for (const f of plan.fields) secret[f] = e.payload[f];
      const payload: Json = {};
      for (const k in e.payload) if (!plan.fields.includes(k)) payload[k] = e.payload[k];
      const c = encrypt(ring.get(ringKey(tenantId, plan.subject))!, tenantId, plan.subject, JSON.stringify(secret));
      payload[SEALED] = { s: plan.subject, f: plan.fields, c } satisfies SealedPayload;
      return { ...e, payload };
    });
    const keyWrites = created.length
      ? [
          {
            sql: `INSERT INTO data_keys (tenant_id, subject, owner, wrapped) SELECT ?::uuid, * FROM unnest(?::text[], ?::text[], ?::text[]) ON CONFLICT DO NOTHING`,
            bindings: [tenantId, created.map((k) => k.subject), created.map((k) => k.owner), created.map((k) => k.wrapped)],
          },
        ]
      : [];
    return { events: sealed, keyWrites };
  }

  /**
   * `seal` for a store whose append is not in a transaction with the read-model database (EventStoreDB): the
   * new data keys are written now, before the append, and the events sealed with the keys `data_keys` holds.
   * Keys are written once (`ON CONFLICT DO NOTHING`) and never replaced, and without the append's transaction
   * nothing serialises two decisions about the same fresh subject (two processes sending the same outbound
   * recipient, whose conversation and part ids derive from it): the one whose key insert lost would otherwise
   * append events sealed with a key nobody stored, unreadable for ever. Such subjects are sealed again with the
   * stored key (and `newKeys` set to it), so whichever decision's append wins, its events open.
   */
  async sealBeside(db: Db, tenantId: string, events: readonly PendingEvent[], newKeys: Map<string, Buffer>): Promise<PendingEvent[]> {
    const first = await this.seal(db, tenantId, events, newKeys);
    if (first.keyWrites.length === 0) return first.events;
    const tried = new Set<string>();
    const inserted = new Set<string>();
    for (const w of first.keyWrites) {
      for (const s of w.bindings[1] as string[]) tried.add(s);
      const r = await db.raw(`${w.sql} RETURNING subject`, w.bindings as Knex.RawBinding[]);
      for (const row of r.rows as { subject: string }[]) inserted.add(row.subject);
    }
    const lost = [...tried].filter((s) => !inserted.has(s));
    if (lost.length === 0) return first.events;
    const found = await this.fetchKeys(
      db,
      lost.map((s) => [tenantId, s]),
    );
    if (found.unopenable.length)
      throw new Error(`data keys of ${found.unopenable.join(', ')} do not open with this process's service key (SERVICE_SECRETS_KEY)`);
    // A key erased between the insert and now: nothing to seal with; the events' subject is gone already.
    for (const s of lost)
      if (!found.ring.has(ringKey(tenantId, s))) throw new Error(`the data key of ${s} was destroyed while its first events were being written`);
    // newKeys holds the keys the first pass created (the inserted ones stay), the lost ones now the stored keys.
    for (const [k, v] of found.ring) newKeys.set(k, v);
    const again = await this.seal(db, tenantId, events, newKeys, newKeys);
    if (again.keyWrites.length) throw new Error('sealBeside: the second pass created keys');
    return again.events;
  }

  /**
   * Opens stored events (any tenants): payloads with their personal fields back,
   * or null where the subject's key is gone. The stored form stays beside the
   * opened one as `sealed_payload`, for copies that must stay sealed (the feed
   * table, delivery records).
   */
  async open<T extends { tenant_id: string; payload: Json }>(db: Db, events: readonly T[]): Promise<(T & { sealed_payload?: Json })[]> {
    const wanted = events.filter((e) => SEALED in e.payload).map((e) => [e.tenant_id, (e.payload[SEALED] as SealedPayload).s] as [string, string]);
    if (wanted.length === 0) return events as T[];
    const { ring } = await this.fetchKeys(db, wanted);
    return events.map((e) =>
      SEALED in e.payload ? { ...e, payload: this.openPayload(ring, e.tenant_id, e.payload, (e as { type?: string }).type), sealed_payload: e.payload } : e,
    );
  }

  /**
   * Replaces the personal fields of the objects in a document (an answer, an
   * export) by sealed tokens, under the keys of the subjects the objects are.
   * A field of a subject without a key (already erased) is stored as null.
   * `known`: keys created by a transaction not yet committed, which `db` is
   * (they need no lookup; see `seal`'s `newKeys`).
   */
  async shred(db: Db, tenantId: string, doc: unknown, known?: ReadonlyMap<string, Buffer>): Promise<unknown> {
    const subjects = new Set<string>();
    walk(doc, (o) => {
      const def = this.objectOf(o);
      if (def && def.fields.some((f) => o[f] !== undefined && o[f] !== null)) subjects.add(`${def.kind}:${String(o.id)}`);
    });
    if (subjects.size === 0) return doc;
    const ring: Keyring = new Map();
    for (const s of subjects) {
      const k = this.recent.get(ringKey(tenantId, s)) ?? known?.get(ringKey(tenantId, s));
      if (k) ring.set(ringKey(tenantId, s), k);
    }
    const missing = [...subjects].filter((s) => !ring.has(ringKey(tenantId, s)));
    if (missing.length)
      for (const [k, v] of (
        await this.fetchKeys(
          db,
          missing.map((s) => [tenantId, s]),
        )
      ).ring)
        ring.set(k, v);
    return map(doc, (o) => {
      const def = this.objectOf(o);
      if (!def) return o;
      const subject = `${def.kind}:${String(o.id)}`;
      const key = ring.get(ringKey(tenantId, subject));
      const out: Json = { ...o };
      for (const f of def.fields) {
        if (out[f] === undefined || out[f] === null) continue;
        const erased = def.erased?.[f] ?? null;
        out[f] = key
          ? { [SEALED_VALUE]: { s: subject, c: encrypt(key, tenantId, subject, JSON.stringify(out[f])), ...(erased !== null ? { e: erased } : {}) } }
          : erased;
      }
      return out;
    });
  }

  /** Opens every sealed token and sealed payload in a document; what cannot be opened becomes null. */
  async reveal(db: Db, tenantId: string, doc: unknown): Promise<unknown> {
    const subjects = new Set<string>();
    walk(doc, (o) => {
      const token = (o[SEALED_VALUE] ?? o[SEALED]) as { s?: unknown } | undefined;
      if (token && typeof token.s === 'string') subjects.add(token.s);
    });
    if (subjects.size === 0) return doc;
    const { ring } = await this.fetchKeys(
      db,
      [...subjects].map((s) => [tenantId, s]),
    );
    return map(doc, (o) => {
      if (SEALED_VALUE in o) {
        const t = o[SEALED_VALUE] as { s: string; c: string; e?: unknown };
        const key = ring.get(ringKey(tenantId, t.s));
        const plain = key ? decrypt(key, tenantId, t.s, t.c) : null;
        return plain === null ? (t.e ?? null) : JSON.parse(plain);
      }
      // An envelope: open its payload in the declared field order (receivers compare bytes too).
      if (isObject(o.payload) && SEALED in o.payload)
        return { ...o, payload: this.openPayload(ring, tenantId, o.payload, typeof o.type === 'string' ? o.type : undefined) };
      return SEALED in o ? this.openPayload(ring, tenantId, o) : o;
    });
  }

  /** Keys created by `seal` whose transaction committed: kept for sealing (see `recent`). */
  remember(created: ReadonlyMap<string, Buffer>): void {
    for (const [k, v] of created) {
      this.recent.delete(k);
      this.recent.set(k, v);
    }
    for (const k of this.recent.keys()) {
      if (this.recent.size <= RECENT_MAX) break;
      this.recent.delete(k);
    }
  }

  /**
   * Destroys the data keys of these subjects and of every subject they own, to any depth (a contact's
   * conversations, their parts, the parts' files). Whatever was sealed with them is unreadable from now
   * on, everywhere. Returns how many keys went.
   */
  async destroy(db: Db, tenantId: string, subjects: readonly string[]): Promise<number> {
    if (subjects.length === 0) return 0;
    // Owned to any depth: a contact's conversations own their parts, and a part owns the files attached to it.
    const res = await db.raw(
      `WITH RECURSIVE doomed(subject) AS (
         SELECT unnest(?::text[])
         UNION
         SELECT k.subject FROM data_keys k JOIN doomed d ON k.tenant_id = ?::uuid AND k.owner = d.subject
       )
       DELETE FROM data_keys WHERE tenant_id = ?::uuid AND subject IN (SELECT subject FROM doomed) RETURNING subject`,
      [[...subjects], tenantId, tenantId],
    );
    for (const r of res.rows as { subject: string }[]) this.recent.delete(ringKey(tenantId, r.subject));
    for (const s of subjects) this.recent.delete(ringKey(tenantId, s));
    return res.rowCount ?? 0;
  }

  /**
   * A new data key for a subject whose personal data is kept beside the log rather than in an event (an
   * upload's name and bytes), stored in the caller's transaction. Refuses a subject that has one.
   */
  async createKey(db: Db, tenantId: string, subject: string, owner: string | null = null): Promise<Buffer> {
    const key = randomBytesPooled(32);
    await db.raw('INSERT INTO data_keys (tenant_id, subject, owner, wrapped) VALUES (?::uuid, ?, ?, ?)', [
      tenantId,
      subject,
      owner,
      this.wrap(tenantId, subject, key),
    ]);
    return key;
  }

  /** The data keys of these subjects, by subject, read from data_keys (an erasure in any process is honoured): a destroyed one is absent. */
  async keysOf(db: Db, tenantId: string, subjects: readonly string[]): Promise<Map<string, Buffer>> {
    const { ring } = await this.fetchKeys(
      db,
      subjects.map((s) => [tenantId, s]),
    );
    return new Map(subjects.flatMap((s) => (ring.has(ringKey(tenantId, s)) ? [[s, ring.get(ringKey(tenantId, s))!]] : [])));
  }

  /** Makes `owner` the owner of these subjects' keys: destroying the owner, or what owns it, destroys them too. */
  async adopt(db: Db, tenantId: string, subjects: readonly string[], owner: string): Promise<void> {
    if (subjects.length === 0) return;
    await db.raw('UPDATE data_keys SET owner = ? WHERE tenant_id = ?::uuid AND subject = ANY(?::text[])', [owner, tenantId, [...subjects]]);
  }

  private objectOf(o: Json): PersonalObject | undefined {
    return typeof o.type === 'string' && typeof o.id === 'string' ? this.objects.get(o.type) : undefined;
  }

  private openPayload(ring: Keyring, tenantId: string, payload: Json, type?: string): Json {
    const { [SEALED]: sealed, ...clear } = payload;
    const s = sealed as SealedPayload;
    const key = ring.get(ringKey(tenantId, s.s));
    const plain = key ? decrypt(key, tenantId, s.s, s.c) : null;
    const opened = plain === null ? Object.fromEntries(s.f.map((f) => [f, null])) : (JSON.parse(plain) as Json);
    const merged = { ...clear, ...opened };
    const order = type ? Object.keys((this.catalogue.get(type)?.payload as { properties?: Json } | undefined)?.properties ?? {}) : [];
    if (order.length === 0) return merged;
    const out: Json = {};
    for (const k of order) if (k in merged) out[k] = merged[k];
    for (const k of Object.keys(merged)) if (!(k in out)) out[k] = merged[k];
    return out;
  }

  private wrap(tenantId: string, subject: string, key: Buffer): string {
    return this.sealer.seal('data_key', tenantId, subject, key.toString('base64'));
  }

  /** The data keys of these subjects; `unopenable` names those whose wrapping does not open with our service key. */
  private async fetchKeys(db: Db, pairs: readonly [string, string][]): Promise<{ ring: Keyring; unopenable: string[] }> {
    const ring: Keyring = new Map();
    const unopenable: string[] = [];
    const unique = [...new Map(pairs.map((p) => [ringKey(p[0], p[1]), p])).values()];
    if (unique.length === 0) return { ring, unopenable };
    // Subjects of one workspace (as a request looks them up, behind row-level security) are named again as a
    // condition on the table: a workspace the planner's statistics put at one row would otherwise be read whole
    // and matched against the list (docs/performance.md, "Reads by key behind the wall").
    const oneTenant = unique.every((p) => p[0] === unique[0]![0]);
    const res = await db.raw(
      `SELECT k.tenant_id::text AS tenant_id, k.subject, k.wrapped FROM data_keys k JOIN unnest(?::uuid[], ?::text[]) AS w(t, s) ON k.tenant_id = w.t AND k.subject = w.s${oneTenant ? ' WHERE k.subject = ANY(?::text[])' : ''}`,
      [unique.map((p) => p[0]), unique.map((p) => p[1]), ...(oneTenant ? [unique.map((p) => p[1])] : [])],
    );
    for (const r of res.rows as { tenant_id: string; subject: string; wrapped: string }[]) {
      try {
        ring.set(ringKey(r.tenant_id, r.subject), Buffer.from(this.sealer.open('data_key', r.tenant_id, r.subject, r.wrapped), 'base64'));
      } catch {
        // Readers never fail on personal data: what does not open reads as null, like an erased subject.
        unopenable.push(r.subject);
      }
    }
    return { ring, unopenable };
  }
}

const aad = (tenantId: string, subject: string) => `data|${tenantId}|${subject}`;
const encrypt = (key: Buffer, tenantId: string, subject: string, plaintext: string): string => sealWith(key, aad(tenantId, subject), plaintext);

/** The plaintext, or null when it does not open (another key, another tenant or subject, tampered). */
function decrypt(key: Buffer, tenantId: string, subject: string, sealed: string): string | null {
  try {
    return openWith(key, aad(tenantId, subject), sealed);
  } catch {
    return null;
  }
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(v: unknown, visit: (o: Json) => void): void {
  if (Array.isArray(v)) for (const x of v) walk(x, visit);
  else if (isObject(v)) {
    visit(v);
    for (const k in v) walk(v[k], visit);
  }
}

/**
 * Maps a document top-down: `f` sees each object before its members are mapped. What `f` and the mapping of its
 * members leave as it was is returned as it was, not copied (an answer's objects are mostly not personal ones:
 * copying them all was garbage on every write).
 */
function map(v: unknown, f: (o: Json) => unknown): unknown {
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = map(v[i], f);
      if (x !== v[i]) (out ??= v.slice())[i] = x;
    }
    return out ?? v;
  }
  if (!isObject(v)) return v;
  const r = f(v);
  if (!isObject(r)) return r;
  let out: Json | undefined;
  for (const k in r) {
    const x = map(r[k], f);
    if (x !== r[k]) (out ??= { ...r })[k] = x;
  }
  return out ?? r;
}
