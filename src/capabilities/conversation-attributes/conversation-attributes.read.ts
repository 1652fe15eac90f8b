import type { Db } from '../../commands/command.js';
import { isUuid } from '../../platform/ids.js';
import { Type } from '@sinclair/typebox';
import { arrayOf, bool, constant, dateTime, nullable, object, oneOfStrings, recordOf, str, uuid, type Static } from '../../api/schemas.js';
import { MAX_ATTRIBUTES, type AttributeDefinition, type DataType } from './conversation-attributes.decider.js';
import { DATA_TYPES } from './conversation-attributes.events.js';
import type { CONVERSATION_ATTRIBUTES } from './conversation-attributes.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `conversation_attributes` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type AttributeRow = RowOf<typeof CONVERSATION_ATTRIBUTES> & {
  data_type: DataType;
};

export const renderAttribute = (a: AttributeRow): ConversationAttribute => ({
  type: 'conversation_attribute',
  id: a.id,
  name: a.name,
  data_type: a.data_type,
  options: a.options,
  description: a.description,
  archived: a.archived,
  created_at: a.created_at.toISOString(),
  updated_at: a.updated_at.toISOString(),
});

const attributesOf = (db: Db, tenantId: string) => db('conversation_attributes').where({ tenant_id: tenantId });

export async function findAttribute(db: Db, tenantId: string, id: string): Promise<AttributeRow | undefined> {
  return isUuid(id) ? attributesOf(db, tenantId).andWhere({ id }).first() : undefined;
}

export async function findAttributeByName(db: Db, tenantId: string, name: string): Promise<AttributeRow | undefined> {
  return attributesOf(db, tenantId).andWhere({ name }).first();
}

/** Every definition of the workspace (at most MAX_ATTRIBUTES), by name. */
export async function allAttributes(db: Db, tenantId: string): Promise<AttributeRow[]> {
  return attributesOf(db, tenantId)
    .orderBy([{ column: 'name' }, { column: 'id' }])
    .limit(MAX_ATTRIBUTES);
}

export async function countAttributes(db: Db, tenantId: string): Promise<number> {
  return Number((await attributesOf(db, tenantId).count<{ n: string }[]>({ n: '*' }))[0]?.n ?? 0);
}

export const attributeDefinition = (a: AttributeRow | undefined): AttributeDefinition | null =>
  a ? { id: a.id, name: a.name, dataType: a.data_type, options: a.options, description: a.description, archived: a.archived } : null;

/** The definitions a conversation's values are checked against (conversations imports this). */
export async function attributeDefinitions(db: Db, tenantId: string): Promise<AttributeDefinition[]> {
  return (await allAttributes(db, tenantId)).map((a) => attributeDefinition(a)!);
}

/**
 * Whether any conversation holds a value of an attribute: conversations' read
 * function, handed in by src/capabilities/index.ts (conversations imports this
 * capability for the definitions, so it may not import conversations back).
 */
export interface AttributeReferences {
  inUse(db: Db, tenantId: string, name: string): Promise<boolean>;
}

export const attributeSchema = object(
  {
    type: constant('conversation_attribute'),
    id: uuid,
    name: str({ description: 'Unique in the workspace; search names it as `custom_attributes.<name>`.' }),
    data_type: oneOfStrings(DATA_TYPES),
    // the values a `list` attribute accepts; null for the other types
    options: nullable(arrayOf(str())),
    description: nullable(str()),
    archived: bool,
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'ConversationAttribute' },
);
export type ConversationAttribute = Static<typeof attributeSchema>;

export const attributeListSchema = object(
  { type: constant('list'), data: arrayOf(attributeSchema, { maxItems: MAX_ATTRIBUTES }) },
  { title: 'ConversationAttributeList', description: `Every conversation attribute of the workspace (at most ${MAX_ATTRIBUTES}), by name: unpaginated.` },
);
export type ConversationAttributeList = Static<typeof attributeListSchema>;

export const deletedAttributeSchema = object(
  { type: constant('conversation_attribute'), id: uuid, deleted: constant(true) },
  { title: 'DeletedConversationAttribute' },
);
export type DeletedConversationAttribute = Static<typeof deletedAttributeSchema>;

/** A conversation's values, as answers show them (personal data: sealed in stored answers, cleared on erasure). */
export const attributeValuesSchema = recordOf(Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
  description:
    "Values of the workspace's conversation attributes, by name: a string (also `date`, YYYY-MM-DD, and `list`), a number or a boolean. Personal data: cleared when the contact is erased.",
});
