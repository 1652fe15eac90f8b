import type { CommandSpec } from '../../commands/command.js';
import type { Forgettable } from '../../eventstore/forgettable.js';
import type { Sealer } from '../../platform/crypto/seal.js';
import { contactErasure, contactsMergedInto } from '../contacts/index.js';
import { contentOfContact, threadKey } from '../conversations/index.js';
import { decideEraseContact, type ContactErasureState, type ErasureEvent } from './erasure.decider.js';

/**
 * Erases a contact. The data keys of the contact, of their conversations and of
 * every part in them (owned by the conversations) are destroyed in the
 * transaction that appends contact.erased: from that commit on, every copy
 * (log, feed, delivery records, stored answers, exports) opens as null. Its
 * bridge threads leave tombstones (keyed hashes): a post to one files nothing.
 */
export const eraseContact = (contactId: string, forgettable: Forgettable, sealer: Sealer): CommandSpec<ContactErasureState, ErasureEvent> => ({
  name: 'EraseContact',
  load: async (db, ctx) => {
    const contact = await contactErasure(db, ctx.tenantId, contactId);
    if (!contact || contact.erased_at) return { contact, conversationIds: [], partIds: [], threadKeys: [] };
    const { threads, ...content } = await contentOfContact(db, ctx.tenantId, contactId);
    // Bridge threads exist only where SERVICE_CHANNELS_SECRET is set (an api channel needs it): their tombstones' key.
    const threadKeys = sealer.canSeal('channel') ? threads.map((t) => threadKey(sealer, ctx.tenantId, t.channelId, t.externalId)) : [];
    return { contact, ...content, threadKeys, mergedIds: await contactsMergedInto(db, ctx.tenantId, contactId) };
  },
  decide: (s) => decideEraseContact(contactId, s),
  beside: async (db, events, ctx) => {
    for (const e of events) {
      await forgettable.destroy(db, ctx.tenantId, [`contact:${e.payload.contact_id}`, ...e.payload.conversation_ids.map((id) => `conversation:${id}`)]);
    }
  },
});
