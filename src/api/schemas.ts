// JSON Schemas of what the API answers. Routes declare them (RouteDef.responses),
// the OpenAPI document (src/api/openapi.ts) is generated from them, and the test
// suite checks every answer it receives against that document. A schema with a
// `title` becomes a named component (#/components/schemas/<title>).
import type { Schema } from './validation.js';

export type { Schema };

export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const uuid: Schema = { type: 'string', format: 'uuid' };
export const dateTime: Schema = { type: 'string', format: 'date-time' };
export const int: Schema = { type: 'integer' };
export const bool: Schema = { type: 'boolean' };
export const constant = (value: string | boolean | number): Schema => ({ type: typeof value === 'number' ? 'number' : typeof value, const: value });
export const oneOfStrings = (values: readonly string[]): Schema => ({ type: 'string', enum: [...values] });
/** The schema, or null. */
export const nullable = (s: Schema): Schema =>
  typeof s.type === 'string' && !s.title && s.const === undefined && s.enum === undefined ? { ...s, type: [s.type, 'null'] } : { anyOf: [s, { type: 'null' }] };
export const arrayOf = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });

/**
 * A closed object: every property listed is present in each answer, except
 * those named in `optional`; nothing else appears.
 */
export function object(properties: Record<string, Schema>, o: { title?: string; description?: string; optional?: readonly string[] } = {}): Schema {
  const required = Object.keys(properties).filter((k) => !o.optional?.includes(k));
  return {
    ...(o.title ? { title: o.title } : {}),
    ...(o.description ? { description: o.description } : {}),
    type: 'object',
    additionalProperties: false,
    required,
    properties,
  };
}

/** The same object with more properties (e.g. a creation answer that adds a secret shown once). */
export function extend(
  base: Schema,
  properties: Record<string, Schema>,
  o: { title?: string; description?: string; optional?: readonly string[] } = {},
): Schema {
  const { title: _t, description: _d, ...rest } = base;
  return {
    ...(o.title ? { title: o.title } : {}),
    ...(o.description ? { description: o.description } : {}),
    ...rest,
    required: [...((base.required as string[]) ?? []), ...Object.keys(properties).filter((k) => !o.optional?.includes(k))],
    properties: { ...(base.properties as Record<string, Schema>), ...properties },
  };
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
    per_page: { type: 'integer', minimum: 1, maximum: 150 },
    next: {
      anyOf: [object({ starting_after: str({ description: 'Pass as `starting_after` for the next page.' }) }), { type: 'null' }],
      description: 'null on the last page',
    },
  },
  { title: 'Pages' },
);

/** The list envelope every list route answers (src/api/pagination/list.ts). */
export function listOf(item: Schema): Schema {
  return object(
    { type: constant('list'), data: arrayOf(item), pages: pagesSchema },
    { title: typeof item.title === 'string' ? `${item.title}List` : undefined },
  );
}
