// Priority as a specification: set at creation (normal by default) and by a `priority` part carrying the resulting priority.
import { decideManage, decideStart, type ConversationView } from '../../src/capabilities/conversations/conversations.decider.js';
import { decider } from '../support/decider-spec.js';

const conv: ConversationView = { id: 'c1', channelId: 'ch1', state: 'open', assigneeId: null, teamId: null, tagIds: [] };
const author = { type: 'member' as const, id: 'm1' };

describe('priority (decider, unit)', () => {
  it('a conversation starts normal unless the start names its priority', () => {
    const start = decider(decideStart);
    const state = { channel: { defaultTeamId: null }, contact: null, assigneeActive: false };
    const base = {
      conversationId: 'c1',
      partId: 'p1',
      newContactId: 'k1',
      channelId: 'ch1',
      body: 'hi',
      subject: null,
      assigneeId: null,
      author,
      contactId: null,
    };
    start
      .given(state)
      .when({ ...base, contact: { email: 'a@example.com' } })
      .then({ type: 'contact.created' }, { type: 'conversation.created', payload: { priority: 'normal' } }, { type: 'conversation_part.created' });
    start
      .given(state)
      .when({ ...base, contact: { email: 'a@example.com' }, priority: 'urgent' })
      .then({ type: 'contact.created' }, { type: 'conversation.created', payload: { priority: 'urgent' } }, { type: 'conversation_part.created' });
  });

  it('a priority part carries the resulting priority; one without a priority is refused on the field', () => {
    const manage = decider((cmd: Parameters<typeof decideManage>[0], c: ConversationView | null) => decideManage(cmd, c, { assigneeActive: false }));
    manage
      .given(conv)
      .when({ partId: 'p2', author, body: null, messageType: 'priority', priority: 'high' })
      .then({ type: 'conversation_part.created', payload: { part_type: 'priority', priority: 'high' } });
    manage.given(conv).when({ partId: 'p2', author, body: null, messageType: 'priority', priority: undefined }).thenRefuses('missing_field', 'priority');
    manage.given(null).when({ partId: 'p2', author, body: null, messageType: 'priority', priority: 'low' }).thenRefuses('not_found');
  });
});
