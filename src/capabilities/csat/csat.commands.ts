import type { CommandSpec } from '../../commands/command.js';
import { decideRate, type RateCommand, type RatedConversation, type RatingInForce } from './csat.decider.js';
import type { CsatEvent } from './csat.events.js';
import { currentRating } from './csat.read.js';
import type { Db } from '../../commands/command.js';

/**
 * The conversation a rating is for, as conversations reads it: handed in by
 * src/capabilities/index.ts (conversations imports csat to show a conversation's
 * rating, so csat may not import conversations back).
 */
export type RatedConversationLookup = (db: Db, tenantId: string, conversationId: string) => Promise<RatedConversation | null>;

export const rateConversation = (
  cmd: RateCommand,
  conversation: RatedConversationLookup,
): CommandSpec<{ conversation: RatedConversation | null; current: RatingInForce | null }, CsatEvent> => ({
  name: 'RateConversation',
  load: async (db, ctx) => {
    const c = await conversation(db, ctx.tenantId, cmd.conversationId);
    return { conversation: c, current: c ? await currentRating(db, ctx.tenantId, c.id) : null };
  },
  decide: (s) => decideRate(cmd, s),
});
