import type { CommandSpec } from '../../commands/command.js';
import type { Forgettable } from '../../eventstore/forgettable.js';
import { contactState, decideMergeContact, type ContactEvent, type ContactState } from '../contacts/index.js';
import { contentOfContact } from '../conversations/index.js';
import { findTag } from '../tags/index.js';

interface MergeState {
  source: ContactState | null;
  target: ContactState | null;
  conversationIds: string[];
  tagNames: Map<string, string>;
}

/**
 * Merges a contact into another (contacts' decideMergeContact). Beside its events, the merged contact's data key
 * becomes owned by the survivor's: erasing the survivor destroys it, and with it everything it owns (the merged
 * contact's conversations, their parts, its notes), wherever those now are.
 */
export const mergeContact = (cmd: { sourceId: string; targetId: string }, forgettable: Forgettable): CommandSpec<MergeState, ContactEvent> => ({
  name: 'MergeContact',
  load: async (db, ctx) => {
    const [source, target] = await Promise.all([contactState(db, ctx.tenantId, cmd.sourceId), contactState(db, ctx.tenantId, cmd.targetId)]);
    const conversationIds = source ? (await contentOfContact(db, ctx.tenantId, source.id)).conversationIds : [];
    const tagNames = new Map<string, string>();
    for (const id of source?.tagIds ?? []) {
      if (target?.tagIds.includes(id)) continue;
      const tag = await findTag(db, ctx.tenantId, id);
      if (tag) tagNames.set(id, tag.name);
    }
    return { source, target, conversationIds, tagNames };
  },
  decide: (s) => decideMergeContact(cmd, s),
  async beside(db, events, ctx) {
    const merged = events.find((e) => e.type === 'contact.merged');
    if (merged && merged.type === 'contact.merged')
      await forgettable.adopt(db, ctx.tenantId, [`contact:${merged.payload.merged_id}`], `contact:${merged.payload.contact_id}`);
  },
});
