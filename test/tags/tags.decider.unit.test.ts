// Tag rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import { decideCreateTag, decideDeleteTag, decideRenameTag } from '../../src/capabilities/tags/tags.decider.js';
import { decider } from '../support/decider-spec.js';

describe('tags decider (unit)', () => {
  it('tag names are unique ignoring case; a rename only when it changes, a deletion names what carried the tag', () => {
    const vip = { id: 't1', name: 'VIP' };
    decider(decideCreateTag)
      .given({ count: 0, sameName: null })
      .when({ id: 't2', name: 'Billing' })
      .then({ type: 'tag.created', payload: { id: 't2', name: 'Billing' } });
    decider(decideCreateTag).given({ count: 0, sameName: vip }).when({ id: 't2', name: 'vip' }).thenRefuses('tag_exists');
    decider(decideCreateTag).given({ count: 1000, sameName: null }).when({ id: 't2', name: 'x' }).thenRefuses('limit_reached');
    decider(decideRenameTag).given({ tag: vip, sameName: vip }).when({ id: 't1', name: 'VIP' }).thenNothing();
    decider(decideRenameTag)
      .given({ tag: vip, sameName: vip })
      .when({ id: 't1', name: 'vip' })
      .then({ type: 'tag.renamed', payload: { id: 't1', name: 'vip' } });
    decider(decideRenameTag)
      .given({ tag: vip, sameName: { id: 't9', name: 'Gold' } })
      .when({ id: 't1', name: 'gold' })
      .thenRefuses('tag_exists');
    decider(decideDeleteTag)
      .given({ conversationIds: ['c1'], contactIds: ['k1'] })
      .when(vip)
      .then({ type: 'tag.deleted', payload: { id: 't1', conversation_ids: ['c1'], contact_ids: ['k1'] } });
  });
});
