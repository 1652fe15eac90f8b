// The event catalogue (design invariant 12). Each capability declares its
// events with `defineEvent`: type, aggregate type, a JSON Schema of the payload
// (TypeBox, so the TypeScript type and the schema are one declaration) and a
// sentence for receivers. The catalogue built from every module is what
// webhook filters and the feed's `types` filter accept, what docs/events.md is
// generated from, and what the suite checks every emitted payload against.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { Type, type Static, type TProperties, type TObject, type TSchema } from '@sinclair/typebox';

const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as unknown as (a: Ajv) => Ajv;

export interface EventDef<T extends string = string, A extends string = string, P extends TSchema = TSchema> {
  type: T;
  aggregate_type: A;
  payload: P;
  /** one sentence for receivers: when the event is appended */
  description: string;
  /** the payload's personal fields and whose data key seals them (see src/eventstore/forgettable.ts) */
  personal?: PersonalSpec;
  /**
   * Whose personal data the caller's address and user agent are when a channel appends this event (a bridge
   * posting for a contact): the payload field naming that contact, as its id or as an author `{type, id}` (the
   * contact when its type is `contact`). The audit log seals the caller under that contact's data key, in the
   * event's metadata (`client`: src/capabilities/audit-log/audit-log.seal.ts). A channel's command none of whose
   * events names one keeps no caller. A member's or an API key's call is always its member's.
   */
  postedFor?: { contact: string };
}

/**
 * Which payload fields are personal data and whose they are. The shell seals
 * these fields with the subject's data key before the event is appended; the
 * log, the feed table and delivery records keep only the sealed form. Once the
 * key is destroyed (an erasure) every copy opens as `null`, so each field must
 * accept null.
 */
export interface PersonalSpec {
  /** the subject kind (contact, conversation, part, member, invite) */
  kind: string;
  /** the payload field holding the subject's id */
  id: string;
  fields: readonly string[];
  /** the subject whose erasure also destroys this one (a part belongs to its conversation, a conversation to its contact) */
  owner?: { kind: string; id: string };
  /** this event is the subject's first: its data key is created with it, never looked up */
  fresh?: boolean;
}

export const defineEvent = <T extends string, A extends string, P extends TSchema>(def: EventDef<T, A, P>): EventDef<T, A, P> => def;

/** The event a decider returns for a definition: no seq, id or time yet. */
export type EventOf<D> = D extends EventDef<infer T, infer A, infer P> ? { type: T; aggregate_type: A; aggregate_id: string; payload: Static<P> } : never;

/** The union of the events of a tuple or record of definitions. */
export type EventsOf<Defs extends Record<string, EventDef>> = { [K in keyof Defs]: EventOf<Defs[K]> }[keyof Defs];

export interface PayloadProblem {
  type: string;
  problems: string[];
}

export class EventCatalogue {
  private readonly byType = new Map<string, EventDef>();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv = addFormats(new Ajv({ allErrors: true, strict: true }));

  constructor(defs: readonly EventDef[]) {
    for (const d of defs) {
      if (this.byType.has(d.type)) throw new Error(`event type ${d.type} is declared twice`);
      if (!/^[a-z_]+\.[a-z_]+$/.test(d.type)) throw new Error(`event type ${d.type} is not of the form aggregate.past_tense`);
      if (d.personal) checkPersonal(d);
      const props = (d.payload as { properties?: Record<string, unknown> }).properties ?? {};
      if (d.postedFor && !(d.postedFor.contact in props)) throw new Error(`${d.type}: postedFor's field ${d.postedFor.contact} is not in the payload`);
      this.byType.set(d.type, d);
    }
  }

  /** Every event type, sorted. */
  types(): string[] {
    return [...this.byType.keys()].sort();
  }

  has(type: string): boolean {
    return this.byType.has(type);
  }

  get(type: string): EventDef | undefined {
    return this.byType.get(type);
  }

  all(): EventDef[] {
    return this.types().map((t) => this.byType.get(t)!);
  }

  /**
   * Problems with an event's shape against its declaration; empty when it conforms.
   * A payload as stored (personal fields sealed under `$sealed`) is checked too:
   * no personal field may sit there in plaintext, the sealed fields must be the
   * declared ones, and the rest must conform with the sealed fields read as null.
   */
  check(e: { type: string; aggregate_type: string; payload: unknown }): string[] {
    const def = this.byType.get(e.type);
    if (!def) return [`${e.type} is not in the catalogue`];
    const out: string[] = [];
    const stored = e.payload as Record<string, unknown>;
    if (stored && typeof stored === 'object' && SEALED in stored) {
      const sealed = stored[SEALED] as { s?: unknown; f?: unknown; c?: unknown };
      const fields = Array.isArray(sealed?.f) ? (sealed.f as string[]) : [];
      const declared = def.personal?.fields ?? [];
      if (!def.personal) out.push('payload is sealed but the event declares no personal fields');
      else if (sealed.s !== `${def.personal.kind}:${String(stored[def.personal.id])}`) out.push(`sealed under ${String(sealed.s)}, not the declared subject`);
      for (const f of fields) if (!declared.includes(f)) out.push(`sealed field ${f} is not declared personal`);
      if (typeof sealed.c !== 'string') out.push('sealed payload has no ciphertext');
      const { [SEALED]: _, ...clear } = stored;
      for (const f of declared) if (clear[f] !== undefined && clear[f] !== null) out.push(`personal field ${f} is in plaintext beside the sealed ones`);
      e = { ...e, payload: { ...clear, ...Object.fromEntries(fields.map((f) => [f, null])) } };
    } else if (def.personal && stored && typeof stored === 'object' && 'seq' in e) {
      // A stored event (it has a seq) whose personal fields were not sealed.
      for (const f of def.personal.fields) if (stored[f] !== undefined && stored[f] !== null) out.push(`personal field ${f} is stored in plaintext`);
    }
    if (e.aggregate_type !== def.aggregate_type) out.push(`aggregate_type is ${e.aggregate_type}, declared ${def.aggregate_type}`);
    let v = this.validators.get(e.type);
    if (!v) {
      v = this.ajv.compile(def.payload);
      this.validators.set(e.type, v);
    }
    if (!v(e.payload))
      for (const err of v.errors ?? [])
        out.push(
          `payload${err.instancePath} ${err.message ?? 'is invalid'}${err.params && 'additionalProperty' in err.params ? ` (${String(err.params.additionalProperty)})` : ''}`,
        );
    return out;
  }
}

/** The key under which a stored payload keeps its sealed personal fields. */
export const SEALED = '$sealed';

function checkPersonal(d: EventDef): void {
  const props = (d.payload as { properties?: Record<string, unknown> }).properties ?? {};
  const p = d.personal!;
  for (const f of [p.id, ...p.fields, ...(p.owner ? [p.owner.id] : [])]) {
    if (!(f in props)) throw new Error(`${d.type}: personal field ${f} is not in the payload`);
  }
  for (const f of p.fields) {
    const schema = props[f] as { anyOf?: { type?: string }[]; type?: unknown };
    const acceptsNull = schema.type === 'null' || (Array.isArray(schema.anyOf) && schema.anyOf.some((s) => s.type === 'null'));
    if (!acceptsNull) throw new Error(`${d.type}: personal field ${f} must accept null (it reads as null once erased)`);
  }
}

// Schema helpers for payload declarations: payloads are closed objects, so a
// stray key in an emitted event is caught by the suite's check of the log.

export const payload = <P extends TProperties>(properties: P): TObject<P> => Type.Object(properties, { additionalProperties: false });
export const Uuid = () => Type.String({ format: 'uuid' });
export const Instant = () => Type.String({ format: 'date-time' });
export const Text = () => Type.String();
export const Nullable = <S extends TSchema>(s: S) => Type.Union([s, Type.Null()]);
/** A personal field: sealed in the log, null once its subject is erased (declare it in the event's `personal`). */
export const Personal = <S extends TSchema>(s: S) => Type.Union([s, Type.Null()], { description: 'Personal data: null once erased.' });
export { Type };
