import { expect } from 'chai';
import { completion, decideCancel, decideFire, decideSend, recipientOutcome, recipientsOf, type RecipientState } from '../../src/capabilities/outbound/outbound.decider.js';

const author = { type: 'member' as const, id: '00000000-0000-4000-8000-000000000001' };
const memberId = author.id;
const now = new Date('2026-01-01T10:00:00Z');

describe('outbound decider (unit)', () => {
  it('resolves an audience into one recipient per contact, in order, skipping archived, erased and unknown ones', () => {
    const contacts = [
      { id: 'b', archived: false, erased: false },
      { id: 'a', archived: true, erased: false },
      { id: 'c', archived: false, erased: true },
    ];
    expect(recipientsOf(contacts, ['a', 'b', 'x', 'b', 'c'])).to.deep.equal([
      { contactId: 'a', skipped: 'archived' },
      { contactId: 'b' },
      { contactId: 'x', skipped: 'unknown_contact' },
      { contactId: 'c', skipped: 'erased' },
    ]);
    expect(recipientsOf(contacts, null).map((r) => r.contactId)).to.deep.equal(['b', 'a', 'c']);
  });

  it('schedules a future send_at without resolving; sends now otherwise; only drafts', () => {
    const draft = { id: 'o', state: 'draft' as const, sendAt: new Date(now.getTime() + 1000) };
    expect(decideSend({ author, memberId, now }, { collection: draft, recipients: null, tooLarge: false }).map((e) => e.type)).to.deep.equal(['outbound.scheduled']);
    const due = { ...draft, sendAt: null };
    expect(decideSend({ author, memberId, now }, { collection: due, recipients: [{ contactId: 'a' }], tooLarge: false }).map((e) => e.type)).to.deep.equal(['outbound.sending']);
    expect(decideSend({ author, memberId, now }, { collection: due, recipients: [{ contactId: 'a', skipped: 'erased' }], tooLarge: false }).map((e) => e.type)).to.deep.equal([
      'outbound.sending',
      'outbound.sent',
    ]);
    expect(() => decideSend({ author, memberId, now }, { collection: { ...due, state: 'sending' }, recipients: [], tooLarge: false })).to.throw('Only a draft');
    expect(() => decideSend({ author, memberId, now }, { collection: due, recipients: [], tooLarge: true })).to.throw('at most');
  });

  it('fires a schedule only when it is still scheduled and due', () => {
    const c = { id: 'o', state: 'scheduled' as const, sendAt: now };
    const s = { collection: c, recipients: [{ contactId: 'a' }], tooLarge: false, author, memberId };
    expect(decideFire({ now }, s).map((e) => e.type)).to.deep.equal(['outbound.sending']);
    expect(decideFire({ now: new Date(now.getTime() - 1) }, s)).to.deep.equal([]);
    expect(decideFire({ now }, { ...s, collection: { ...c, state: 'cancelled' } })).to.deep.equal([]);
    expect(decideFire({ now }, { ...s, tooLarge: true })[0]!.payload).to.deep.include({ reason: 'audience_too_large' });
    expect(decideFire({ now }, { ...s, invalid: true })[0]!.payload).to.deep.include({ reason: 'audience_invalid', contact_ids: [] });
  });

  it('cancels every pending recipient in one event; a finished collection is a conflict', () => {
    const [e] = decideCancel({ collection: { id: 'o', state: 'sending', sendAt: null }, pending: ['a', 'b'] });
    expect(e!.payload).to.deep.equal({ id: 'o', reason: 'requested', contact_ids: ['a', 'b'] });
    expect(() => decideCancel({ collection: { id: 'o', state: 'sent', sendAt: null }, pending: [] })).to.throw('already sent');
  });

  it("decides a recipient's turn on current state: nothing unless pending and sending; an existing conversation is only marked sent", () => {
    const base: RecipientState = { collectionState: 'sending', recipientStatus: 'pending', conversationExists: false, contact: { archived: false, erased: false, externalId: 'x' }, channelKind: 'api' };
    expect(recipientOutcome(base)).to.deep.equal({ kind: 'start' });
    expect(recipientOutcome({ ...base, recipientStatus: 'sent' })).to.deep.equal({ kind: 'nothing' });
    expect(recipientOutcome({ ...base, collectionState: 'cancelled' })).to.deep.equal({ kind: 'nothing' });
    expect(recipientOutcome({ ...base, conversationExists: true })).to.deep.equal({ kind: 'already_started' });
    expect(recipientOutcome({ ...base, contact: { archived: false, erased: true, externalId: null } })).to.deep.equal({ kind: 'skip', reason: 'erased' });
    expect(recipientOutcome({ ...base, contact: { archived: false, erased: false, externalId: null } })).to.include({ kind: 'fail', code: 'contact_unreachable' });
    expect(completion('o', { pending: 1, sent: 2, failed: 0, skipped: 1 }, { kind: 'start' })[0]!.payload).to.deep.equal({ id: 'o', sent: 3, failed: 0, skipped: 1 });
    expect(completion('o', { pending: 2, sent: 2, failed: 0, skipped: 1 }, { kind: 'start' })).to.deep.equal([]);
  });
});
