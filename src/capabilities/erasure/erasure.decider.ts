// Pure rules of erasing a contact.
import { NotFound } from '../../platform/errors.js';
import { contactMerged, type ContactEvent } from '../contacts/index.js';

export interface ContactErasureState {
  contact: { id: string; erased_at: Date | null; merged_into?: string | null } | null;
  conversationIds: string[];
  partIds: string[];
  /** the keyed hashes of the contact's bridge threads (conversations' threadKey): their tombstones */
  threadKeys: string[];
  /** the contacts merged into this one (and into those, along the chain), not erased: they go with it */
  mergedIds?: string[];
}

export type ErasureEvent = Extract<ContactEvent, { type: 'contact.erased' }>;

/**
 * Erasing a contact is one event naming, by id only, what it made unreadable,
 * and one more for each contact merged into it (their conversations are its
 * own since the merge, so theirs name none). Erasing an erased contact decides
 * nothing: the route answers the same 200 (a retry, or two people erasing at
 * once, is not an error).
 */
export function decideEraseContact(contactId: string, s: ContactErasureState): ErasureEvent[] {
  if (!s.contact) throw new NotFound('contact');
  if (s.contact.erased_at) return [];
  // Its conversations and notes are the survivor's since the merge: erasing it is erasing the survivor, which takes it along.
  if (s.contact.merged_into) throw contactMerged(s.contact.id, s.contact.merged_into);
  return [
    {
      type: 'contact.erased',
      aggregate_type: 'contact',
      aggregate_id: contactId,
      payload: { contact_id: contactId, conversation_ids: s.conversationIds, part_ids: s.partIds, thread_keys: s.threadKeys },
    },
    ...(s.mergedIds ?? []).map((id): ErasureEvent => ({
      type: 'contact.erased',
      aggregate_type: 'contact',
      aggregate_id: id,
      payload: { contact_id: id, conversation_ids: [], part_ids: [], thread_keys: [] },
    })),
  ];
}
