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
      .given({ conversation, current: { ratingId: 'r1' } })
      .when(cmd)
      .then({ type: 'conversation.rated', payload: { rating_id: 'r2', replaces: 'r1' } });
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
