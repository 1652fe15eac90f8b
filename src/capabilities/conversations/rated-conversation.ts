import type { Db } from '../../commands/command.js';
import type { RatedConversation } from '../csat/index.js';
import { findConversation } from './conversations.read.js';

/** What a rating records of its conversation (handed to csat by src/capabilities/index.ts): null when there is none. */
export async function ratedConversation(db: Db, tenantId: string, id: string): Promise<RatedConversation | null> {
  const c = await findConversation(db, tenantId, id);
  return c ? { id: c.id, contactId: c.contact_id, channelId: c.channel_id, assigneeId: c.assignee_id, teamId: c.team_id } : null;
}
