// JSON Schemas of what the API answers, declared once in TypeBox: routes declare
// them (RouteDef.responses), the OpenAPI document (src/api/openapi.ts) is
// generated from them, the test suite checks every answer it receives against
// that document, and each renderer's return type is `Static<typeof itsSchema>`,
// so a renderer that adds a field its schema lacks, or leaves out a required
// one, does not compile. A schema with a `title` becomes a named component
// (#/components/schemas/<title>).
import {
  Kind,
  Type,
  type ArrayOptions,
  type IntegerOptions,
  type NumberOptions,
  type SchemaOptions,
  type Static,
  type StringOptions,
  type TArray,
  type TLiteral,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox';
import type { Schema } from './validation.js';

export type { Schema, Static };

/**
 * What the helpers take: a TypeBox schema, or (for code not yet moved to
 * TypeBox) a plain JSON Schema, whose values are then typed `unknown`.
 */
export type Loose = TSchema | Schema;
type Typed<S> = S extends TSchema ? S : TUnsafe<unknown>;
const typed = <S extends Loose>(s: S): Typed<S> => (Kind in s ? s : Type.Unsafe<unknown>(s)) as Typed<S>;

// The keys come in the order the document has always had them: TypeBox spreads
// the options first and then sets its own keys, which keep the place the
// options gave them. So docs/openapi.json did not change when these moved to
// TypeBox, and `type` leads each schema as a reader expects.
export const str = (extra: StringOptions = {}) => Type.String({ type: 'string', ...extra });
export const uuid = str({ format: 'uuid' });
export const dateTime = str({ format: 'date-time' });
export const int = Type.Integer();
export const integer = (extra: IntegerOptions = {}) => Type.Integer({ type: 'integer', ...extra });
export const number = (extra: NumberOptions = {}) => Type.Number({ type: 'number', ...extra });
export const bool = Type.Boolean();
export const boolean = (extra: SchemaOptions = {}) => Type.Boolean({ type: 'boolean', ...extra });
export const constant = <const V extends string | boolean | number>(value: V, extra: SchemaOptions = {}): TLiteral<V> =>
  Type.Literal(value, { type: typeof value, const: value, ...extra });
/** One of these strings, as `enum` (a union of literals would be an `anyOf` of `const`s in the document). */
export const oneOfStrings = <const V extends readonly string[]>(values: V, extra: SchemaOptions = {}): TUnsafe<V[number]> =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...extra });
/** Exactly one of these schemas (`oneOf`; TypeBox's union is `anyOf`). */
export const oneOf = <const T extends readonly TSchema[]>(schemas: T, extra: SchemaOptions = {}): TUnsafe<Static<T[number]>> =>
  Type.Unsafe<Static<T[number]>>({ ...extra, oneOf: [...schemas] });
/** An object with any keys whose values are all `values` (`additionalProperties`, where TypeBox's record gives `patternProperties`). */
export const recordOf = <S extends TSchema>(values: S, extra: SchemaOptions = {}): TUnsafe<Record<string, Static<S>>> =>
  Type.Unsafe<Record<string, Static<S>>>({ type: 'object', ...extra, additionalProperties: values });
/** Some JSON object the answer passes through (a filter tree, a JSON Schema). */
export const anyObject = (extra: SchemaOptions = {}): TUnsafe<Record<string, unknown>> => Type.Unsafe<Record<string, unknown>>({ type: 'object', ...extra });

/**
 * The schema, or null. A plain string, number or boolean becomes
 * `type: [its type, "null"]` (tools then still show its format); anything else
 * (an object, a named schema, a const, an enum) `anyOf` it or null.
 */
export function nullable<S extends Loose>(s: S, extra: SchemaOptions = {}): TUnsafe<Static<Typed<S>> | null> {
  const simple = ['string', 'integer', 'number', 'boolean'].includes(s.type as string) && !s.title && s.const === undefined && s.enum === undefined;
  // Not the inner schema's kind: this is no longer a TypeBox string or integer.
  const { [Kind]: _kind, ...plain } = s as Schema & { [Kind]?: string };
  return Type.Unsafe<Static<Typed<S>> | null>(simple ? { ...plain, type: [s.type, 'null'], ...extra } : { anyOf: [s, { type: 'null' }], ...extra });
}
export const arrayOf = <S extends Loose>(items: S, extra: ArrayOptions = {}): TArray<Typed<S>> =>
  Type.Array(typed(items), { type: 'array', items: typed(items), ...extra });

/** Property names made optional by `object(…, { optional })`. */
type OptionalNames<P> = readonly (keyof P & string)[];
type WithOptional<P extends Record<string, Loose>, O extends string> = {
  [K in keyof P]: K extends O ? TOptional<Typed<P[K]>> : Typed<P[K]>;
};
interface ObjectOpts<O> {
  title?: string;
  description?: string;
  /** properties an answer may leave out (or wrap them in Type.Optional) */
  optional?: O;
}

function marked(properties: Record<string, Loose>, optional: readonly string[] = []): TProperties {
  return Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, optional.includes(k) ? Type.Optional(typed(s)) : typed(s)]));
}

function closed(properties: TProperties, o: { title?: string; description?: string }): TObject {
  return Type.Object(properties, {
    ...(o.title ? { title: o.title } : {}),
    ...(o.description ? { description: o.description } : {}),
    type: 'object',
    additionalProperties: false,
    // TypeBox leaves `required` out when nothing is; the document always said so.
    required: [],
  });
}

/**
 * A closed object: every property listed is present in each answer, except
 * those named in `optional` (or wrapped in Type.Optional); nothing else appears.
 */
export function object<P extends Record<string, Loose>, const O extends OptionalNames<P> = []>(
  properties: P,
  o: ObjectOpts<O> = {},
): TObject<WithOptional<P, O[number]>> {
  return closed(marked(properties, o.optional), o) as TObject<WithOptional<P, O[number]>>;
}

/** The same object with more properties (e.g. a creation answer that adds a secret shown once). */
export function extend<B extends TProperties, P extends Record<string, Loose>, const O extends OptionalNames<P> = []>(
  base: TObject<B>,
  properties: P,
  o: ObjectOpts<O> = {},
): TObject<B & WithOptional<P, O[number]>> {
  // The base's properties keep their optional marks; the new ones get theirs here.
  return closed({ ...base.properties, ...marked(properties, o.optional) }, o) as TObject<B & WithOptional<P, O[number]>>;
}

/** One entry of an error answer. */
export const errorEntrySchema = object(
  {
    code: str({ description: 'Stable, machine-readable: see the table of codes.' }),
    message: str({ description: 'For people; may change.' }),
    field: str({ description: 'The field, parameter or header at fault (e.g. `contact.name`), when known.' }),
  },
  { title: 'ErrorEntry', optional: ['field'] },
);

/** Every coded error: {"type":"error.list","request_id","errors":[{code,message,field?}]} (src/api/error-handler.ts). */
export const errorListSchema = object(
  {
    type: constant('error.list'),
    request_id: str({ description: 'Echoes X-Request-Id when the caller sent one; quote it when reporting a problem.' }),
    errors: arrayOf(errorEntrySchema, { minItems: 1 }),
  },
  { title: 'ErrorList' },
);

/**
 * Declares an error status a route gives beyond those every route of its kind
 * gives (see errorStatuses in openapi.ts): the answer is the error envelope.
 */
export const ERROR = errorListSchema;

export const pagesSchema = object(
  {
    type: constant('pages'),
    per_page: integer({ minimum: 1, maximum: 150 }),
    next: nullable(object({ starting_after: str({ description: 'Pass as `starting_after` for the next page.' }) }), { description: 'null on the last page' }),
  },
  { title: 'Pages' },
);
export type Pages = Static<typeof pagesSchema>;

/** The list envelope every list route answers (src/api/pagination/list.ts). */
export function listOf<S extends Loose>(item: S) {
  return object(
    { type: constant('list'), data: arrayOf(item), pages: pagesSchema },
    { title: typeof item.title === 'string' ? `${item.title}List` : undefined },
  );
}
/** A page of a list route's answer, of items of this schema. */
export type ListOf<S extends TSchema> = Static<ReturnType<typeof listOf<S>>>;
