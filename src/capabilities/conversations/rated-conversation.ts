import type { Db } from '../../commands/command.js';
import type { RatedConversation } from '../csat/index.js';
import { findConversation, findThread } from './conversations.read.js';

/** What a rating records of its conversation: null when there is none. */
export async function ratedConversation(db: Db, tenantId: string, id: string): Promise<RatedConversation | null> {
  const c = await findConversation(db, tenantId, id);
  return c
    ? { id: c.id, contactId: c.contact_id, channelId: c.channel_id, assigneeId: c.assignee_id, teamId: c.team_id, contactErased: c.contact_erased }
    : null;
}

/** The reads csat needs of conversations, handed to it by src/capabilities/index.ts (conversations imports csat, not the reverse). */
export const ratingLookups = {
  conversation: ratedConversation,
  /** the conversation a channel filed for a bridge's thread id */
  thread: async (db: Db, tenantId: string, channelId: string, externalId: string) => (await findThread(db, tenantId, channelId, externalId)) ?? null,
};
