// Conversation rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import { expect } from 'chai';
import {
  decideInbound,
  decideManage,
  decideRedact,
  decideReply,
  decideStart,
  decideTagConversation,
  decideUnsend,
  type ConversationView,
  type InboundCommand,
  type PartView,
} from '../../src/capabilities/conversations/conversations.decider.js';
import { codeOf, decider } from '../support/decider-spec.js';
import { exactDecider } from '../support/decider-spec-exact.js';

const conv = (over: Partial<ConversationView> = {}): ConversationView => ({
  id: 'c1',
  channelId: 'ch1',
  state: 'open',
  assigneeId: null,
  teamId: null,
  tagIds: [],
  ...over,
});
const inbound = (over: Partial<InboundCommand> = {}): InboundCommand => ({
  channelId: 'ch1',
  defaultTeamId: 'team-1',
  conversationId: 'c-new',
  contactId: 'k-new',
  partId: 'p-new',
  externalId: 'thread-1',
  messageId: null,
  contact: { external_id: 'x1', name: 'Ann' },
  content: 'hi',
  attachments: [],
  at: '2026-01-01T00:00:00.000Z',
  ...over,
});
/** A payload as a receiver reads it (the union's members differ). */
const pl = (e: { payload: object }) => e.payload as Record<string, unknown>;

describe('conversations decider (unit)', () => {
  describe('inbound', () => {
    it('opens a conversation for a new thread and a new contact: contact, conversation, message', () => {
      const events = decideInbound(inbound(), { thread: null, messageFiled: false, contact: null });
      expect(events.map((e) => e.type)).to.deep.equal(['contact.created', 'conversation.created', 'conversation_part.created']);
      expect(events[1]!.payload).to.include({ conversation_id: 'c-new', contact_id: 'k-new', team_id: 'team-1', external_id: 'thread-1', state: 'open' });
      expect(events[2]!.payload).to.include({ part_id: 'p-new', part_type: 'message', body: 'hi' });
      expect(pl(events[2]!).author).to.deep.equal({ type: 'contact', id: 'k-new' });
    });

    it('files nothing for a known thread without a new message id', () => {
      expect(decideInbound(inbound(), { thread: conv(), messageFiled: false, contact: null })).to.deep.equal([]);
      expect(decideInbound(inbound({ messageId: 'm1' }), { thread: conv(), messageFiled: true, contact: null })).to.deep.equal([]);
    });

    it('adds a follow-up message and reopens a closed conversation', () => {
      const contact = { id: 'k1', external_id: 'x1', name: 'Ann', email: null, phone: null };
      const events = decideInbound(inbound({ messageId: 'm2' }), { thread: conv({ state: 'closed' }), messageFiled: false, contact });
      expect(events.map((e) => e.type)).to.deep.equal(['conversation_part.created']);
      expect(events[0]!.payload).to.include({ conversation_id: 'c1', external_id: 'm2', state: 'open' });
    });

    it('fills only blank contact fields', () => {
      const contact = { id: 'k1', external_id: 'x1', name: 'Known', email: null, phone: null };
      const events = decideInbound(inbound({ contact: { external_id: 'x1', name: 'Claimed', email: 'e@example.com' } }), {
        thread: null,
        messageFiled: false,
        contact,
      });
      expect(events[0]).to.deep.include({ type: 'contact.updated' });
      expect(events[0]!.payload).to.deep.equal({ contact_id: 'k1', email: 'e@example.com' });
    });
  });

  describe('teammate start', () => {
    const cmd = {
      conversationId: 'c2',
      partId: 'p2',
      newContactId: 'k2',
      channelId: 'ch1',
      body: 'hello',
      subject: null,
      assigneeId: null,
      author: { type: 'member' as const, id: 'm1' },
      contactId: null,
      contact: { email: 'a@example.com' },
    };
    it('starts with a customer-visible comment', () => {
      const events = decideStart(cmd, { channel: { defaultTeamId: null }, contact: null, assigneeActive: false });
      expect(events.map((e) => e.type)).to.deep.equal(['contact.created', 'conversation.created', 'conversation_part.created']);
      expect(pl(events[2]!).part_type).to.equal('comment');
    });
    it('refuses unknown channel, contact and assignee as field errors', () => {
      expect(codeOf(() => decideStart(cmd, { channel: null, contact: null, assigneeActive: false }))).to.equal('unknown_channel');
      expect(codeOf(() => decideStart({ ...cmd, contactId: 'nope' }, { channel: { defaultTeamId: null }, contact: null, assigneeActive: false }))).to.equal(
        'unknown_contact',
      );
      expect(codeOf(() => decideStart({ ...cmd, assigneeId: 'm9' }, { channel: { defaultTeamId: null }, contact: null, assigneeActive: false }))).to.equal(
        'unknown_member',
      );
    });
  });

  describe('replies and management', () => {
    const author = { type: 'member' as const, id: 'm1' };
    it('replies as comment or note', () => {
      expect(pl(decideReply({ partId: 'p', messageType: 'note', body: 'x', attachments: [], author }, { conversation: conv() })[0]!).part_type).to.equal(
        'note',
      );
      expect(codeOf(() => decideReply({ partId: 'p', messageType: 'comment', body: 'x', attachments: [], author }, { conversation: null }))).to.equal(
        'not_found',
      );
    });
    it('a note mentions active members, one conversation.mentioned each after the part; a comment mentions no one', () => {
      const note = { partId: 'p', messageType: 'note' as const, body: 'x', attachments: [], author, mentions: ['m2', 'm3'] };
      const events = decideReply(note, { conversation: conv(), activeMentioned: new Set(['m2', 'm3']) });
      expect(events.map((e) => e.type)).to.deep.equal(['conversation_part.created', 'conversation.mentioned', 'conversation.mentioned']);
      expect(events.slice(1).map((e) => e.payload)).to.deep.equal(
        ['m2', 'm3'].map((member_id) => ({ conversation_id: conv().id, part_id: 'p', member_id, mentioned_by: author })),
      );
      expect(codeOf(() => decideReply(note, { conversation: conv(), activeMentioned: new Set(['m2']) }))).to.equal('unknown_member');
      expect(codeOf(() => decideReply({ ...note, messageType: 'comment' }, { conversation: conv(), activeMentioned: new Set(['m2', 'm3']) }))).to.equal(
        'mentions_on_notes_only',
      );
    });
    it('carries the resulting state on each management part', () => {
      expect(decideManage({ partId: 'p', author, body: null, messageType: 'close' }, conv(), { assigneeActive: false })[0]!.payload).to.include({
        part_type: 'close',
        state: 'closed',
      });
      expect(
        codeOf(() => decideManage({ partId: 'p', author, body: null, messageType: 'close' }, conv({ state: 'closed' }), { assigneeActive: false })),
      ).to.equal('conversation_already_closed');
      expect(codeOf(() => decideManage({ partId: 'p', author, body: null, messageType: 'open' }, conv(), { assigneeActive: false }))).to.equal(
        'conversation_already_open',
      );
      const now = new Date('2026-01-01T00:00:00Z');
      const snooze = decideManage({ partId: 'p', author, body: null, messageType: 'snoozed', snoozedUntil: '2026-01-02T00:00:00Z', now }, conv(), {
        assigneeActive: false,
      });
      expect(snooze[0]!.payload).to.include({ state: 'snoozed', snoozed_until: '2026-01-02T00:00:00.000Z' });
      expect(
        codeOf(() =>
          decideManage({ partId: 'p', author, body: null, messageType: 'snoozed', snoozedUntil: '2025-12-31T00:00:00Z', now }, conv(), {
            assigneeActive: false,
          }),
        ),
      ).to.equal('snooze_in_past');
      const unassign = decideManage(
        { partId: 'p', author, body: null, messageType: 'assignment', assigneeId: null, teamId: undefined },
        conv({ assigneeId: 'm1' }),
        { assigneeActive: false },
      );
      expect(unassign[0]!.payload).to.include({ assignee_id: null }).and.not.have.property('team_id');
    });

    const open = conv();
    const manage = decider((cmd: Parameters<typeof decideManage>[0], s: { c: ConversationView | null }) => decideManage(cmd, s.c, { assigneeActive: true }));
    it('closing an open conversation appends a close part carrying the closed state', () => {
      manage
        .given({ c: open })
        .when({ partId: 'p', author, body: null, messageType: 'close' })
        .then({ type: 'conversation_part.created', aggregate_id: 'c1', payload: { part_type: 'close', state: 'closed', snoozed_until: null } });
    });
    it('closing a closed conversation is refused', () => {
      manage
        .given({ c: { ...open, state: 'closed' } })
        .when({ partId: 'p', author, body: null, messageType: 'close' })
        .thenRefuses('conversation_already_closed');
    });
    it('snoozing into the past is refused on the field', () => {
      manage
        .given({ c: open })
        .when({ partId: 'p', author, body: null, messageType: 'snoozed', snoozedUntil: '2020-01-01T00:00:00Z', now: new Date('2026-01-01T00:00:00Z') })
        .thenRefuses('snooze_in_past', 'snoozed_until');
    });
    it('managing a conversation of another workspace (not loaded) is a 404', () => {
      manage.given({ c: null }).when({ partId: 'p', author, body: null, messageType: 'open' }).thenRefuses('not_found');
    });
  });

  describe('tags', () => {
    it('tagging is an idempotent delta: twice changes nothing, untagging what is absent changes nothing, an unknown tag is a 404', () => {
      const open = conv();
      const vip = { id: 't1', name: 'VIP' };
      decider(decideTagConversation)
        .given({ conversation: open, tag: vip })
        .when({ conversationId: 'c1', tagId: 't1', add: true })
        .then({ type: 'conversation.tagged', payload: { conversation_id: 'c1', tag_id: 't1', name: 'VIP' } });
      decider(decideTagConversation)
        .given({ conversation: { ...open, tagIds: ['t1'] }, tag: vip })
        .when({ conversationId: 'c1', tagId: 't1', add: true })
        .thenNothing();
      decider(decideTagConversation).given({ conversation: open, tag: vip }).when({ conversationId: 'c1', tagId: 't1', add: false }).thenNothing();
      decider(decideTagConversation)
        .given({ conversation: { ...open, tagIds: ['t1'] }, tag: vip })
        .when({ conversationId: 'c1', tagId: 't1', add: false })
        .then({ type: 'conversation.untagged', payload: { tag_id: 't1' } });
      decider(decideTagConversation).given({ conversation: open, tag: null }).when({ conversationId: 'c1', tagId: 't9', add: true }).thenRefuses('not_found');
      decider(decideTagConversation).given({ conversation: null, tag: vip }).when({ conversationId: 'c9', tagId: 't1', add: true }).thenRefuses('not_found');
    });
  });

  describe('redact and unsend', () => {
    const sentAt = new Date('2026-01-01T10:00:00.000Z');
    const comment: PartView = {
      id: 'p1',
      conversationId: 'c1',
      channelId: 'ch1',
      partType: 'comment',
      author: { type: 'member', id: 'm1' },
      authorMemberId: 'm1',
      externalId: 'ext-1',
      createdAt: sentAt,
      redacted: null,
    };
    const moderator = { type: 'member' as const, id: 'm2' };
    const redact = exactDecider(decideRedact);
    const unsend = exactDecider(decideUnsend);
    const byAuthor = (secondsLater: number, actorMemberId: string | undefined = 'm1') => ({
      conversationId: 'c1',
      partId: 'p1',
      actorMemberId,
      now: new Date(sentAt.getTime() + secondsLater * 1000),
      windowSeconds: 120,
    });

    it("redacting any part, a customer's message included, appends its redaction naming who redacted it", () => {
      const message: PartView = { ...comment, partType: 'message', author: { type: 'contact', id: 'k1' }, authorMemberId: null };
      redact
        .given(message)
        .when({ conversationId: 'c1', partId: 'p1', by: moderator })
        .then({
          type: 'conversation_part.redacted',
          aggregate_type: 'conversation',
          aggregate_id: 'c1',
          payload: { conversation_id: 'c1', part_id: 'p1', redacted_by: moderator },
        });
    });
    it('redacting a part whose content is already gone (redacted, unsent or erased) appends nothing', () => {
      for (const gone of ['redacted', 'unsent', 'erased'] as const)
        redact
          .given({ ...comment, redacted: gone })
          .when({ conversationId: 'c1', partId: 'p1', by: moderator })
          .thenNothing();
    });
    it('redacting a part not loaded, or one of another conversation, is a 404', () => {
      redact.given(null).when({ conversationId: 'c1', partId: 'p1', by: moderator }).thenRefuses({ code: 'not_found', status: 404 });
      redact.given(comment).when({ conversationId: 'c2', partId: 'p1', by: moderator }).thenRefuses({ code: 'not_found', status: 404 });
    });

    it('unsending a comment by its author within the window appends the unsend, with what the bridge needs to retract it', () => {
      unsend
        .given(comment)
        .when(byAuthor(120))
        .then({
          type: 'conversation_part.unsent',
          aggregate_type: 'conversation',
          aggregate_id: 'c1',
          payload: { conversation_id: 'c1', part_id: 'p1', channel_id: 'ch1', external_id: 'ext-1' },
        });
    });
    it('unsending a comment already unsent appends nothing, even after the window', () => {
      unsend
        .given({ ...comment, redacted: 'unsent' })
        .when(byAuthor(3600))
        .thenNothing();
    });
    it('unsending a part not loaded, or one of another conversation, is a 404', () => {
      unsend.given(null).when(byAuthor(1)).thenRefuses({ code: 'not_found', status: 404 });
      unsend
        .given(comment)
        .when({ ...byAuthor(1), conversationId: 'c2' })
        .thenRefuses({ code: 'not_found', status: 404 });
    });
    it("unsending anything but a comment (a note, a customer's message) is refused", () => {
      unsend
        .given({ ...comment, partType: 'note' })
        .when(byAuthor(1))
        .thenRefuses({ code: 'part_not_unsendable', status: 409 });
      unsend
        .given({ ...comment, partType: 'message', author: { type: 'contact', id: 'k1' }, authorMemberId: null })
        .when(byAuthor(1))
        .thenRefuses({ code: 'part_not_unsendable', status: 409 });
    });
    it('unsending a comment is refused to anyone but the member who wrote it', () => {
      unsend.given(comment).when(byAuthor(1, 'm2')).thenRefuses({ code: 'not_author', status: 403 });
      unsend
        .given(comment)
        .when({ ...byAuthor(1), actorMemberId: undefined })
        .thenRefuses({ code: 'not_author', status: 403 });
    });
    it('unsending a redacted comment is refused: nothing is left to unsend', () => {
      unsend
        .given({ ...comment, redacted: 'redacted' })
        .when(byAuthor(1))
        .thenRefuses({ code: 'part_redacted', status: 409 });
    });
    it('unsending a comment after the window is refused', () => {
      unsend.given(comment).when(byAuthor(121)).thenRefuses({ code: 'unsend_window_passed', status: 409 });
    });
  });
});
