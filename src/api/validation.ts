// What the edge refuses, in two passes over every request.
//
// First, text Postgres cannot store, for every route, in one place: a NUL
// character (text and jsonb reject it) or an unpaired UTF-16 surrogate (jsonb
// rejects its \uD800 escape; a text column would silently get U+FFFD).
// JSON.parse turns "\u0000" escapes into real NULs, so the check runs over
// parsed values: bodies (keys too), query-string values, path parameters and
// header values. The walk is iterative and bounded in depth and size, so a
// deeply nested body is a 400 rather than a stack overflow.
//
// Then each body and query against its JSON Schema: one schema per body or
// query, compiled once at start (ajv, allErrors), failures become field-level
// error entries.
import type { Request } from 'express';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { BadRequest, ValidationFailed, type ErrorEntry } from '../platform/errors.js';

/** Deepest nesting a request body may have (the deepest schema here is 3 levels). */
export const MAX_JSON_DEPTH = 32;
/** Most values (objects, arrays, strings, numbers...) one body may hold. */
export const MAX_JSON_VALUES = 200_000;

/**
 * True when Postgres can store `s` in a text or jsonb column unchanged: no NUL, and no unpaired surrogate
 * (`isWellFormed`). Run on every string of every request, so two native scans rather than a pattern with a
 * look-behind (a third of the time).
 */
export const isStorableText = (s: string): boolean => (s as WellFormed).isWellFormed() && !s.includes('\0');

/** ES2024's String.prototype.isWellFormed (in V8 since Node 20.0); the compiler's lib is older. */
type WellFormed = string & { isWellFormed(): boolean };

const invalidText = (field: string | undefined, what = field ?? 'The request body') =>
  new BadRequest('invalid_text', `${what} contains a character the service cannot store (a NUL or an unpaired UTF-16 surrogate).`, field);

interface Node {
  value: unknown;
  /** the node holding this one, and this one's key in it: a path is spelt out only for an error */
  parent: Node | undefined;
  key: string | undefined;
  depth: number;
}

/** The dotted path of a node (`contact.name`, `attachments.0.url`), from `base`. */
function pathOf(node: Node, base: string | undefined): string | undefined {
  const keys: string[] = [];
  for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) keys.push(n.key);
  if (base !== undefined) keys.push(base);
  return keys.length ? keys.reverse().join('.') : undefined;
}

/**
 * Throws 400 `invalid_text` naming the field (`contact.name`, `attachments.0.url`;
 * the containing object for a bad key) when a string or key in `value` cannot be
 * stored, and 400 `nesting_too_deep` / `too_many_values` past the bounds.
 */
export function assertStorable(value: unknown, base?: string): void {
  const stack: Node[] = [{ value, parent: undefined, key: undefined, depth: 0 }];
  let seen = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value: v, depth } = node;
    if (++seen > MAX_JSON_VALUES) throw new BadRequest('too_many_values', `The request holds more than ${MAX_JSON_VALUES} values.`);
    if (typeof v === 'string') {
      if (!isStorableText(v)) throw invalidText(pathOf(node, base));
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH)
      throw new BadRequest('nesting_too_deep', `The request nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels.`, pathOf(node, base));
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: node, key: String(i), depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(v);
    for (const k of keys) {
      if (isStorableText(k)) continue;
      const path = pathOf(node, base);
      throw invalidText(path, path ?? 'A field name');
    }
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (v as Record<string, unknown>)[keys[i]!], parent: node, key: keys[i]!, depth: depth + 1 });
  }
}

/**
 * The generic check of a JSON route: path parameters, query-string values,
 * header values and the parsed body. (The signed inbound route reads its raw
 * body itself and calls assertStorable after the signature verifies.)
 */
export function assertStorableRequest(req: Request): void {
  for (const [name, v] of Object.entries(req.params ?? {})) {
    if (typeof v === 'string' && !isStorableText(v)) throw invalidText(name);
  }
  assertStorable(req.query, undefined);
  for (const [name, v] of Object.entries(req.headers)) {
    for (const s of Array.isArray(v) ? v : [v]) if (typeof s === 'string' && !isStorableText(s)) throw invalidText(name);
  }
  if (req.body !== undefined && !Buffer.isBuffer(req.body)) assertStorable(req.body);
}

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as unknown as (a: Ajv) => Ajv;

export type Schema = Record<string, unknown>;

/**
 * RFC 3339 allows instants JavaScript's Date cannot read (a leap second, 23:59:60),
 * and the handlers read date-times with Date: a date-time must be both.
 */
function readableDateTimes(ajv: Ajv): Ajv {
  const rfc3339 = ajv.formats['date-time'] as { validate: (s: string) => boolean; compare?: (a: string, b: string) => number | undefined };
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => rfc3339.validate(s) && !Number.isNaN(Date.parse(s)), compare: rfc3339.compare });
  return ajv;
}

const bodies = readableDateTimes(addFormats(new Ajv({ allErrors: true, strict: true, strictRequired: false, useDefaults: false })));
const queries = readableDateTimes(addFormats(new Ajv({ allErrors: true, strict: true, strictRequired: false, coerceTypes: true, useDefaults: true })));

function fieldOf(e: ErrorObject): string | undefined {
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const extra =
    e.keyword === 'required'
      ? (e.params as { missingProperty: string }).missingProperty
      : e.keyword === 'additionalProperties'
        ? (e.params as { additionalProperty: string }).additionalProperty
        : undefined;
  const f = [base, extra].filter(Boolean).join('.');
  return f || undefined;
}

function entryOf(e: ErrorObject): ErrorEntry {
  const field = fieldOf(e);
  const code = e.keyword === 'required' ? 'missing_field' : e.keyword === 'additionalProperties' ? 'unknown_field' : 'invalid_field';
  const message =
    e.keyword === 'required'
      ? `${field} is required.`
      : e.keyword === 'additionalProperties'
        ? `${field} is not a known field.`
        : `${field ?? 'body'} ${e.message ?? 'is invalid'}.`;
  return field ? { code, message, field } : { code, message };
}

export interface Validator<T> {
  (value: unknown): T;
}

function make<T>(ajv: Ajv, schema: Schema): Validator<T> {
  const fn: ValidateFunction = ajv.compile(schema);
  return (value: unknown) => {
    if (!fn(value)) throw new ValidationFailed((fn.errors ?? []).map(entryOf));
    return value as T;
  };
}

export const bodyValidator = <T>(schema: Schema): Validator<T> => make<T>(bodies, { type: 'object', ...schema });

export function queryValidator<T>(schema: Schema): Validator<T> {
  const validate = make<Record<string, unknown>>(queries, { type: 'object', ...schema });
  return (value: unknown) => {
    const out = validate(value);
    // Type coercion turns "1e400" or "Infinity" into Infinity, which then slips past
    // minimum/maximum: a query number must be finite.
    const infinite = Object.keys(out).filter((k) => typeof out[k] === 'number' && !Number.isFinite(out[k]));
    if (infinite.length > 0)
      throw new ValidationFailed(infinite.map((field) => ({ code: 'invalid_field', message: `${field} must be a finite number.`, field })));
    return out as T;
  };
}
