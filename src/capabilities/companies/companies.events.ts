import { defineEvent, Nullable, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

/** Custom attributes: scalar values by key (strings, numbers, booleans). */
export const CustomAttributes = () => Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]));

export const CompanyCreated = defineEvent({
  type: 'company.created',
  aggregate_type: 'company',
  description: "A company was created. `id` is the service's, `company_id` the workspace's own identifier (unique in the workspace).",
  payload: payload({
    id: Uuid(),
    company_id: Text(),
    name: Text(),
    website: Nullable(Text()),
    plan: Nullable(Text()),
    size: Nullable(Type.Integer({ minimum: 0 })),
    custom_attributes: CustomAttributes(),
  }),
});

export const CompanyUpdated = defineEvent({
  type: 'company.updated',
  aggregate_type: 'company',
  description: 'Fields of a company changed; only changed fields are in the payload, and custom_attributes, when present, is the whole resulting set.',
  payload: payload({
    id: Uuid(),
    name: Type.Optional(Text()),
    website: Type.Optional(Nullable(Text())),
    plan: Type.Optional(Nullable(Text())),
    size: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
    custom_attributes: Type.Optional(CustomAttributes()),
  }),
});

export const CompanyDeleted = defineEvent({
  type: 'company.deleted',
  aggregate_type: 'company',
  description: 'A company was deleted; its company_id may be used again.',
  payload: payload({ id: Uuid() }),
});

export const companyEvents = [CompanyCreated, CompanyUpdated, CompanyDeleted] as const;
export type CompanyEvent = EventOf<(typeof companyEvents)[number]>;
export type CustomAttributeValues = Record<string, string | number | boolean>;
