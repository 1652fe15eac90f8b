// Erasure rules as specifications: given the contact loaded with what it made, when it is erased, then the event or a coded refusal.
import { decideEraseContact } from '../../src/capabilities/erasure/erasure.decider.js';
import { exactDecider } from '../support/decider-spec-exact.js';

describe('erasure decider (unit)', () => {
  const erase = exactDecider(decideEraseContact);

  it('erasing a contact appends one event naming, by id only, the conversations and parts it made unreadable, and its threads by keyed hash', () => {
    erase
      .given({ contact: { id: 'k1', erased_at: null }, conversationIds: ['c1', 'c2'], partIds: ['p1', 'p2', 'p3'], threadKeys: ['h1'] })
      .when('k1')
      .then({
        type: 'contact.erased',
        aggregate_type: 'contact',
        aggregate_id: 'k1',
        payload: { contact_id: 'k1', conversation_ids: ['c1', 'c2'], part_ids: ['p1', 'p2', 'p3'], thread_keys: ['h1'] },
      });
  });
  it('erasing a contact that made nothing still appends its erasure', () => {
    erase
      .given({ contact: { id: 'k1', erased_at: null }, conversationIds: [], partIds: [], threadKeys: [] })
      .when('k1')
      .then({
        type: 'contact.erased',
        aggregate_type: 'contact',
        aggregate_id: 'k1',
        payload: { contact_id: 'k1', conversation_ids: [], part_ids: [], thread_keys: [] },
      });
  });
  it('erasing an erased contact appends nothing (a retry, or two people erasing at once)', () => {
    erase
      .given({ contact: { id: 'k1', erased_at: new Date('2026-01-01T00:00:00Z') }, conversationIds: ['c1'], partIds: ['p1'], threadKeys: [] })
      .when('k1')
      .thenNothing();
  });
  it("erasing a contact not loaded (none, or another workspace's) is a 404", () => {
    erase.given({ contact: null, conversationIds: [], partIds: [], threadKeys: [] }).when('k1').thenRefuses({ code: 'not_found', status: 404 });
  });
});
