// Saved-reply rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import { expect } from 'chai';
import { decideCreateSavedReply, decideUpdateSavedReply, MAX_SAVED_REPLIES } from '../../src/capabilities/saved-replies/saved-replies.decider.js';

describe('saved-replies decider (unit)', () => {
  const cmd = { id: '00000000-0000-4000-8000-000000000001', name: 'Hello', body: 'Hi {{contact.name}}' };
  it('refuses the 151st reply, a taken name, and an unknown placeholder', () => {
    expect(decideCreateSavedReply(cmd, { count: MAX_SAVED_REPLIES - 1, holder: null })).to.have.length(1);
    expect(() => decideCreateSavedReply(cmd, { count: MAX_SAVED_REPLIES, holder: null })).to.throw().with.property('code', 'limit_reached');
    expect(() => decideCreateSavedReply(cmd, { count: 0, holder: { id: 'x' } })).to.throw().with.property('code', 'saved_reply_exists');
    expect(() => decideCreateSavedReply({ ...cmd, body: '{{nope}}' }, { count: 0, holder: null })).to.throw().with.property('code', 'unknown_placeholder');
  });
  it('records only what changes; a reply may change the case of its own name', () => {
    const reply = { id: cmd.id, name: 'Hello', body: 'x' };
    expect(decideUpdateSavedReply({ id: cmd.id, name: 'Hello', body: 'x' }, { reply, holder: { id: cmd.id } })).to.deep.equal([]);
    expect(decideUpdateSavedReply({ id: cmd.id, name: 'HELLO' }, { reply, holder: { id: cmd.id } })[0]!.payload).to.deep.equal({ id: cmd.id, name: 'HELLO' });
    expect(() => decideUpdateSavedReply({ id: cmd.id, name: 'Other' }, { reply, holder: { id: 'y' } })).to.throw().with.property('code', 'saved_reply_exists');
    expect(() => decideUpdateSavedReply({ id: cmd.id, body: '{{x.y}}' }, { reply, holder: null })).to.throw().with.property('code', 'unknown_placeholder');
    expect(() => decideUpdateSavedReply({ id: cmd.id, body: 'y' }, { reply: null, holder: null })).to.throw().with.property('status', 404);
  });
});
