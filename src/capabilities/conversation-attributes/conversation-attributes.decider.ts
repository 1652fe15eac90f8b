// Pure rules of conversation attribute definitions, and of the values a
// conversation may carry. Names are unique in the workspace (case-sensitive, as
// search names them: `custom_attributes.<name>`); at most MAX_ATTRIBUTES, because
// GET /api/conversation_attributes is unpaginated; a name and a data type never
// change (values already set were checked against them); a definition is deleted
// only while no conversation holds a value of it (archive it otherwise).
import { BadRequest, Conflict, NotFound, Unprocessable, ValidationFailed, type ErrorEntry } from '../../platform/errors.js';
import type { ConversationAttributeEvent, DATA_TYPES } from './conversation-attributes.events.js';

export const MAX_ATTRIBUTES = 100;
export const MAX_OPTIONS = 100;
/** Longest `string` value. */
export const MAX_STRING_VALUE = 1000;

export type DataType = (typeof DATA_TYPES)[number];
export type AttributeValue = string | number | boolean;

export interface AttributeDefinition {
  id: string;
  name: string;
  dataType: DataType;
  options: string[] | null;
  description: string | null;
  archived: boolean;
}

export interface NewDefinition {
  id: string;
  name: string;
  dataType: DataType;
  options?: string[];
  description?: string | null;
}

function checkOptions(dataType: DataType, options: string[] | undefined | null): string[] | null {
  if (dataType !== 'list') {
    if (options !== undefined && options !== null) throw new BadRequest('invalid_field', 'Only a `list` attribute has options.', 'options');
    return null;
  }
  if (!options || options.length === 0) throw new BadRequest('missing_field', 'A `list` attribute names its options (1 to 100 strings).', 'options');
  if (new Set(options).size !== options.length) throw new BadRequest('invalid_field', 'Options must be distinct.', 'options');
  return options;
}

export function decideCreateAttribute(cmd: NewDefinition, s: { count: number; sameName: AttributeDefinition | null }): ConversationAttributeEvent[] {
  if (s.sameName) throw new Conflict('attribute_exists', `A conversation attribute named "${cmd.name}" exists: ${s.sameName.id}.`);
  if (s.count >= MAX_ATTRIBUTES)
    throw new Unprocessable('limit_reached', `A workspace defines at most ${MAX_ATTRIBUTES} conversation attributes; archive or delete one.`);
  const options = checkOptions(cmd.dataType, cmd.options);
  return [
    {
      type: 'conversation_attribute.created',
      aggregate_type: 'conversation_attribute',
      aggregate_id: cmd.id,
      payload: { id: cmd.id, name: cmd.name, data_type: cmd.dataType, options, description: cmd.description ?? null },
    },
  ];
}

export interface DefinitionChange {
  options?: string[];
  description?: string | null;
  archived?: boolean;
}

/** Records only what changed; a change that changes nothing appends nothing. */
export function decideUpdateAttribute(cmd: { id: string; change: DefinitionChange }, d: AttributeDefinition | null): ConversationAttributeEvent[] {
  if (!d) throw new NotFound('conversation attribute');
  const out: { options?: string[] | null; description?: string | null; archived?: boolean } = {};
  if (cmd.change.options !== undefined) {
    const options = checkOptions(d.dataType, cmd.change.options);
    if (JSON.stringify(options) !== JSON.stringify(d.options)) out.options = options;
  }
  if (cmd.change.description !== undefined && cmd.change.description !== d.description) out.description = cmd.change.description;
  if (cmd.change.archived !== undefined && cmd.change.archived !== d.archived) out.archived = cmd.change.archived;
  if (Object.keys(out).length === 0) return [];
  return [
    { type: 'conversation_attribute.updated', aggregate_type: 'conversation_attribute', aggregate_id: d.id, payload: { id: d.id, name: d.name, ...out } },
  ];
}

export function decideDeleteAttribute(d: AttributeDefinition | null, s: { inUse: boolean }): ConversationAttributeEvent[] {
  if (!d) throw new NotFound('conversation attribute');
  if (s.inUse)
    throw new Conflict(
      'attribute_in_use',
      `Conversations hold values of "${d.name}"; archive it instead (it then takes no new values), or remove the values first.`,
    );
  return [{ type: 'conversation_attribute.deleted', aggregate_type: 'conversation_attribute', aggregate_id: d.id, payload: { id: d.id, name: d.name } }];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const isDate = (v: string): boolean => {
  const m = DATE.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1 && at.getUTCFullYear() === y && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d;
};

/** Why a value does not fit its definition (null: it fits). */
export function valueProblem(d: AttributeDefinition, v: unknown): string | null {
  switch (d.dataType) {
    case 'string':
      return typeof v === 'string' && v.length <= MAX_STRING_VALUE ? null : `must be a string of at most ${MAX_STRING_VALUE} characters`;
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v) ? null : 'must be an integer (at most 2^53 - 1 in magnitude)';
    case 'float':
      return typeof v === 'number' && Number.isFinite(v) ? null : 'must be a number';
    case 'boolean':
      return typeof v === 'boolean' ? null : 'must be true or false';
    case 'date':
      return typeof v === 'string' && isDate(v) ? null : 'must be a calendar date, YYYY-MM-DD';
    case 'list':
      return typeof v === 'string' && d.options!.includes(v) ? null : `must be one of its options: ${d.options!.map((o) => JSON.stringify(o)).join(', ')}`;
    default: {
      const never: never = d.dataType;
      throw new Error(`unhandled data type ${String(never)}`);
    }
  }
}

/**
 * The values a conversation carries after a change: each named attribute must be
 * defined and not archived, and its value must fit its type (a `list` takes only
 * its options); null removes a value. Every problem is reported at once, each
 * naming `custom_attributes.<name>`.
 */
export function applyAttributeValues(
  current: Readonly<Record<string, AttributeValue>>,
  change: Readonly<Record<string, unknown>>,
  definitions: readonly AttributeDefinition[],
): { values: Record<string, AttributeValue>; changed: string[] } {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const problems: ErrorEntry[] = [];
  const values: Record<string, AttributeValue> = { ...current };
  const changed: string[] = [];
  for (const [name, v] of Object.entries(change)) {
    const field = `custom_attributes.${name}`;
    const d = byName.get(name);
    if (!d) {
      problems.push({ code: 'unknown_attribute', message: `No conversation attribute is named ${JSON.stringify(name)}; define it first.`, field });
      continue;
    }
    if (v === null) {
      if (name in values) (delete values[name], changed.push(name));
      continue;
    }
    if (d.archived) {
      problems.push({ code: 'attribute_archived', message: `${name} is archived: it keeps its values but takes no new ones.`, field });
      continue;
    }
    const problem = valueProblem(d, v);
    if (problem) {
      problems.push({ code: 'invalid_attribute_value', message: `${name} is a ${d.dataType} attribute: the value ${problem}.`, field });
      continue;
    }
    if (values[name] !== v) ((values[name] = v as AttributeValue), changed.push(name));
  }
  if (problems.length) throw new ValidationFailed(problems);
  return { values, changed };
}
