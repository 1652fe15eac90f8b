// CSAT rules as a specification: one rating per conversation, a later one replacing it (named in its event), credited to who had the conversation then.
import { decideRate } from '../../src/capabilities/csat/csat.decider.js';
import { decider } from '../support/decider-spec.js';

const conversation = { id: 'c1', contactId: 'k1', channelId: 'ch1', assigneeId: 'm1', teamId: 't1', contactErased: false };
const cmd = { conversationId: 'c1', ratingId: 'r2', score: 4, remark: 'Quick', ratedBy: { type: 'api_key' as const, id: 'key1' } };

describe('CSAT (decider, unit)', () => {
  const rate = decider(decideRate);
  it('a first rating names no earlier one and records the assignee and team of the moment', () => {
    rate
      .given({ conversation, current: null })
      .when(cmd)
      .then({
        type: 'conversation.rated',
        aggregate_id: 'c1',
        payload: { rating_id: 'r2', score: 4, remark: 'Quick', assignee_id: 'm1', team_id: 't1', contact_id: 'k1', replaces: null },
      });
  });
  it('a second rating replaces the first, naming it', () => {
    rate
      .given({ conversation, current: { ratingId: 'r1', score: 2, remark: null, ratedAt: '2026-11-28T10:00:00.000Z' } })
      .when(cmd)
      .then({ type: 'conversation.rated', payload: { rating_id: 'r2', replaces: 'r1' } });
  });
  // A bridge's rating is timed by the customer's moment, signed: replayed bytes can never set a rating back.
  const bridged = { ...cmd, ratedBy: { type: 'contact' as const }, ratedAt: '2026-11-28T10:00:00.000Z' };
  const inForce = (ratedAt: string, score = 4, remark: string | null = 'Quick') => ({ ratingId: 'r1', score, remark, ratedAt });
  it('a bridged rating older than the one in force changes nothing', () => {
    rate
      .given({ conversation, current: inForce('2026-11-28T10:00:00.001Z', 5) })
      .when(bridged)
      .thenNothing();
  });
  it('the same bridged rating again (same time, score and remark) changes nothing; a new score at that time replaces it', () => {
    rate
      .given({ conversation, current: inForce('2026-11-28T10:00:00.000Z') })
      .when(bridged)
      .thenNothing();
    rate
      .given({ conversation, current: inForce('2026-11-28T10:00:00.000Z', 1) })
      .when(bridged)
      .then({ type: 'conversation.rated', payload: { replaces: 'r1', score: 4, rated_at: '2026-11-28T10:00:00.000Z' } });
  });
  it('a bridged rating newer than the one in force replaces it and records its time', () => {
    rate
      .given({ conversation, current: inForce('2026-11-28T09:59:59.999Z', 1) })
      .when(bridged)
      .then({ type: 'conversation.rated', payload: { replaces: 'r1', rated_at: '2026-11-28T10:00:00.000Z' } });
  });
  it('an API rating (timed by the service) replaces the one in force whatever its time', () => {
    rate
      .given({ conversation, current: inForce('2099-01-01T00:00:00.000Z') })
      .when(cmd)
      .then({ type: 'conversation.rated', payload: { replaces: 'r1' } });
  });
  it('rating a conversation that is not there is a 404', () => {
    rate.given({ conversation: null, current: null }).when(cmd).thenRefuses('not_found');
  });
  it('rating a conversation whose contact was erased is refused: its remark would outlive the erasure', () => {
    rate
      .given({ conversation: { ...conversation, contactErased: true }, current: null })
      .when(cmd)
      .thenRefuses('contact_erased');
  });
});
