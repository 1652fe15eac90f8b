// Pure CSAT rules: a conversation has at most one rating, the latest; rating it
// again replaces the rating (a new event naming the one it replaces, so the log
// keeps both and receivers see the change). A bridge's rating carries the time
// the customer gave it, signed: one older than the rating in force changes
// nothing, so replayed bytes can never set a rating back. The conversation's assignee and team
// at rating time go into the event: the report credits who handled it then.
import { NotFound } from '../../platform/errors.js';
import { contactErased } from '../contacts/index.js';
import type { CsatEvent } from './csat.events.js';

export interface RatedConversation {
  id: string;
  contactId: string;
  channelId: string;
  assigneeId: string | null;
  teamId: string | null;
  /** its contact was erased: a remark given now would outlive the erasure (its key's owner is gone), so none is taken */
  contactErased: boolean;
}

export interface RateCommand {
  conversationId: string;
  ratingId: string;
  score: number;
  remark: string | null;
  /** the caller (an API key or member), or the customer themselves through the channel's bridge */
  ratedBy: { type: 'member' | 'api_key'; id: string } | { type: 'contact' };
  /** when the customer rated, as the bridge signed it (ISO 8601); absent: now, by the service clock (the API) */
  ratedAt?: string;
}

/** The rating in force, as the decision needs it. */
export interface RatingInForce {
  ratingId: string;
  score: number;
  remark: string | null;
  ratedAt: string;
}

/**
 * Whether a rating given at a signed time changes nothing: one in force was given later (bytes replayed from before
 * it, or a bridge's late delivery), or at that very time with the same score and remark (the same rating again).
 */
export const supersededBy = (cmd: RateCommand, current: RatingInForce | null): boolean =>
  !!cmd.ratedAt &&
  !!current &&
  (Date.parse(current.ratedAt) > Date.parse(cmd.ratedAt) ||
    (Date.parse(current.ratedAt) === Date.parse(cmd.ratedAt) && current.score === cmd.score && current.remark === cmd.remark));

export function decideRate(cmd: RateCommand, s: { conversation: RatedConversation | null; current: RatingInForce | null }): CsatEvent[] {
  const c = s.conversation;
  if (!c) throw new NotFound('conversation');
  if (supersededBy(cmd, s.current)) return [];
  if (c.contactErased) throw contactErased(c.contactId);
  return [
    {
      type: 'conversation.rated',
      aggregate_type: 'conversation',
      aggregate_id: c.id,
      payload: {
        conversation_id: c.id,
        rating_id: cmd.ratingId,
        score: cmd.score,
        remark: cmd.remark,
        contact_id: c.contactId,
        channel_id: c.channelId,
        assignee_id: c.assigneeId,
        team_id: c.teamId,
        rated_by: cmd.ratedBy.type === 'contact' ? { type: 'contact', id: c.contactId } : cmd.ratedBy,
        replaces: s.current?.ratingId ?? null,
        ...(cmd.ratedAt ? { rated_at: new Date(cmd.ratedAt).toISOString() } : {}),
      },
    },
  ];
}
