import type { Db } from '../../commands/command.js';
import { isUuid } from '../../platform/ids.js';
import type { ContactInput, ContactView } from './contacts.decider.js';

const COLS = ['id', 'external_id', 'email', 'name', 'phone'];

/** By id; else by external_id, then e-mail (spec 2.6: the caller's assertion picks the contact). */
export async function findContact(db: Db, tenantId: string, by: ContactInput & { id?: string }): Promise<ContactView | null> {
  if (by.id) return isUuid(by.id) ? ((await db('contacts').where({ tenant_id: tenantId, id: by.id }).first(COLS)) ?? null) : null;
  if (by.external_id) {
    const found = await db('contacts').where({ tenant_id: tenantId, external_id: by.external_id }).first(COLS);
    if (found) return found;
  }
  if (by.email) {
    const found = await db('contacts').where({ tenant_id: tenantId }).whereRaw('lower(email) = lower(?)', [by.email]).orderBy('created_at').first(COLS);
    if (found) return found;
  }
  return null;
}

/** Whether a contact exists and when it was erased (erasure decides on this). */
export async function contactErasure(db: Db, tenantId: string, id: string): Promise<{ id: string; erased_at: Date | null } | null> {
  if (!isUuid(id)) return null;
  return (await db('contacts').where({ tenant_id: tenantId, id }).first('id', 'erased_at')) ?? null;
}
