// The event catalogue (design invariant 12). Each capability declares its
// events with `defineEvent`: type, aggregate type, a JSON Schema of the payload
// (TypeBox, so the TypeScript type and the schema are one declaration) and a
// sentence for receivers. The catalogue built from every module is what
// webhook filters and the feed's `types` filter accept, what docs/events.md is
// generated from, and what the suite checks every emitted payload against.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { Static, TSchema } from '@sinclair/typebox';

const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as unknown as (a: Ajv) => Ajv;

export interface EventDef<T extends string = string, A extends string = string, P extends TSchema = TSchema> {
  type: T;
  aggregate_type: A;
  payload: P;
  /** one sentence for receivers: when the event is appended */
  description: string;
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

  /** Problems with an event's shape against its declaration; empty when it conforms. */
  check(e: { type: string; aggregate_type: string; payload: unknown }): string[] {
    const def = this.byType.get(e.type);
    if (!def) return [`${e.type} is not in the catalogue`];
    const out: string[] = [];
    if (e.aggregate_type !== def.aggregate_type) out.push(`aggregate_type is ${e.aggregate_type}, declared ${def.aggregate_type}`);
    let v = this.validators.get(e.type);
    if (!v) {
      v = this.ajv.compile(def.payload);
      this.validators.set(e.type, v);
    }
    if (!v(e.payload)) for (const err of v.errors ?? []) out.push(`payload${err.instancePath} ${err.message ?? 'is invalid'}${err.params && 'additionalProperty' in err.params ? ` (${String(err.params.additionalProperty)})` : ''}`);
    return out;
  }
}

// Schema helpers for payload declarations: payloads are closed objects, so a
// stray key in an emitted event is caught by the suite's check of the log.
import { Type, type TProperties, type TObject, type TSchema as AnySchema } from '@sinclair/typebox';

export const payload = <P extends TProperties>(properties: P): TObject<P> => Type.Object(properties, { additionalProperties: false });
export const Uuid = () => Type.String({ format: 'uuid' });
export const Instant = () => Type.String({ format: 'date-time' });
export const Text = () => Type.String();
export const Nullable = <S extends AnySchema>(s: S) => Type.Union([s, Type.Null()]);
export { Type };
