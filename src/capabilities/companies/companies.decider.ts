// Pure company rules: the workspace's company_id is unique; an update records
// only what changes; custom attributes merge by key and a null removes one.
import { Conflict, NotFound } from '../../platform/errors.js';
import type { CompanyEvent, CustomAttributeValues } from './companies.events.js';

export interface CompanyView {
  id: string;
  companyId: string;
  name: string;
  website: string | null;
  plan: string | null;
  size: number | null;
  customAttributes: CustomAttributeValues;
}

export interface CompanyFields {
  name?: string;
  website?: string | null;
  plan?: string | null;
  size?: number | null;
  /** a null value removes the key */
  custom_attributes?: Record<string, string | number | boolean | null>;
}

/** Merges a patch of custom attributes into the current ones: by key, null removes. */
export function mergeAttributes(current: CustomAttributeValues, patch: Record<string, string | number | boolean | null>): CustomAttributeValues {
  const out: CustomAttributeValues = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

export const sameAttributes = (a: CustomAttributeValues, b: CustomAttributeValues) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

export function decideCreateCompany(
  cmd: { id: string; companyId: string; fields: CompanyFields & { name: string } },
  s: { existing: CompanyView | null },
): CompanyEvent[] {
  if (s.existing) throw new Conflict('company_exists', `A company with company_id "${cmd.companyId}" exists: ${s.existing.id}.`);
  return [
    {
      type: 'company.created',
      aggregate_type: 'company',
      aggregate_id: cmd.id,
      payload: {
        id: cmd.id,
        company_id: cmd.companyId,
        name: cmd.fields.name,
        website: cmd.fields.website ?? null,
        plan: cmd.fields.plan ?? null,
        size: cmd.fields.size ?? null,
        custom_attributes: mergeAttributes({}, cmd.fields.custom_attributes ?? {}),
      },
    },
  ];
}

export function decideUpdateCompany(cmd: { id: string; fields: CompanyFields }, c: CompanyView | null): CompanyEvent[] {
  if (!c) throw new NotFound('company');
  const f = cmd.fields;
  const changed: Omit<Extract<CompanyEvent, { type: 'company.updated' }>['payload'], 'id'> = {};
  if (f.name !== undefined && f.name !== c.name) changed.name = f.name;
  if (f.website !== undefined && f.website !== c.website) changed.website = f.website;
  if (f.plan !== undefined && f.plan !== c.plan) changed.plan = f.plan;
  if (f.size !== undefined && f.size !== c.size) changed.size = f.size;
  if (f.custom_attributes !== undefined) {
    const merged = mergeAttributes(c.customAttributes, f.custom_attributes);
    if (!sameAttributes(merged, c.customAttributes)) changed.custom_attributes = merged;
  }
  return Object.keys(changed).length ? [{ type: 'company.updated', aggregate_type: 'company', aggregate_id: c.id, payload: { id: c.id, ...changed } }] : [];
}

export function decideDeleteCompany(cmd: { id: string }, c: CompanyView | null): CompanyEvent[] {
  if (!c) throw new NotFound('company');
  return [{ type: 'company.deleted', aggregate_type: 'company', aggregate_id: cmd.id, payload: { id: cmd.id } }];
}
