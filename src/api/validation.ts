// JSON Schema validation at the edge: one schema per body or query, compiled
// once at start (ajv, allErrors), failures become field-level error entries.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { ValidationFailed, type ErrorEntry } from '../platform/errors.js';

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
