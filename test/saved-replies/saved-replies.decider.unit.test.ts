// Saved-reply rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import {
  decideCreateSavedReply,
  decideDeleteSavedReply,
  decideUpdateSavedReply,
  MAX_SAVED_REPLIES,
} from '../../src/capabilities/saved-replies/saved-replies.decider.js';
import { exactDecider } from '../support/decider-spec-exact.js';

const ID = '00000000-0000-4000-8000-000000000001';

describe('saved-replies decider (unit)', () => {
  const create = exactDecider(decideCreateSavedReply);
  const update = exactDecider(decideUpdateSavedReply);
  const remove = exactDecider(decideDeleteSavedReply);
  const cmd = { id: ID, name: 'Hello', body: 'Hi {{contact.name}}' };
  const reply = { id: ID, name: 'Hello', body: 'x' };

  it(`creating a reply appends it, up to the ${MAX_SAVED_REPLIES}th of a workspace`, () => {
    create
      .given({ count: MAX_SAVED_REPLIES - 1, holder: null })
      .when(cmd)
      .then({ type: 'saved_reply.created', aggregate_type: 'saved_reply', aggregate_id: ID, payload: { id: ID, name: 'Hello', body: 'Hi {{contact.name}}' } });
  });
  it(`creating the ${MAX_SAVED_REPLIES + 1}st reply, one with a name another reply holds, or one with a bad placeholder is refused`, () => {
    create.given({ count: MAX_SAVED_REPLIES, holder: null }).when(cmd).thenRefuses({ code: 'limit_reached', status: 422 });
    create
      .given({ count: 0, holder: { id: 'x' } })
      .when(cmd)
      .thenRefuses({ code: 'saved_reply_exists', status: 409 });
    create
      .given({ count: 0, holder: null })
      .when({ ...cmd, body: '{{nope}}' })
      .thenRefuses({ code: 'unknown_placeholder', status: 400, field: 'body' });
    create
      .given({ count: 0, holder: null })
      .when({ ...cmd, body: 'Hi {{contact.name' })
      .thenRefuses({ code: 'invalid_placeholder', status: 400, field: 'body' });
  });

  it('an update records only what changes; a reply may change the case of its own name', () => {
    update
      .given({ reply, holder: { id: ID } })
      .when({ id: ID, name: 'Hello', body: 'x' })
      .thenNothing();
    update
      .given({ reply, holder: { id: ID } })
      .when({ id: ID, name: 'HELLO' })
      .then({ type: 'saved_reply.updated', aggregate_type: 'saved_reply', aggregate_id: ID, payload: { id: ID, name: 'HELLO' } });
    update
      .given({ reply, holder: null })
      .when({ id: ID, name: 'Bye', body: 'Bye {{member.name}}' })
      .then({ type: 'saved_reply.updated', aggregate_type: 'saved_reply', aggregate_id: ID, payload: { id: ID, name: 'Bye', body: 'Bye {{member.name}}' } });
  });
  it('an update to a name another reply holds, or to a body with a bad placeholder, is refused; of a reply not loaded, a 404', () => {
    update
      .given({ reply, holder: { id: 'y' } })
      .when({ id: ID, name: 'Other' })
      .thenRefuses({ code: 'saved_reply_exists', status: 409 });
    update.given({ reply, holder: null }).when({ id: ID, body: '{{x.y}}' }).thenRefuses({ code: 'unknown_placeholder', status: 400, field: 'body' });
    update.given({ reply, holder: null }).when({ id: ID, body: '{{contact.name!}}' }).thenRefuses({ code: 'invalid_placeholder', status: 400, field: 'body' });
    update.given({ reply: null, holder: null }).when({ id: ID, body: 'y' }).thenRefuses({ code: 'not_found', status: 404 });
  });

  it('deleting a reply appends its deletion', () => {
    remove
      .given(reply)
      .when({ id: ID })
      .then({ type: 'saved_reply.deleted', aggregate_type: 'saved_reply', aggregate_id: ID, payload: { id: ID } });
  });
  it("deleting a reply not loaded (none, already deleted, or another workspace's) is a 404", () => {
    remove.given(null).when({ id: ID }).thenRefuses({ code: 'not_found', status: 404 });
  });
});
