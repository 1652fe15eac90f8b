import { expect } from 'chai';
// Outbound rules as specifications: given the loaded collection, when a command, then events or a coded refusal.
import {
  completion,
  decideCancel,
  decideCreate,
  decideDelete,
  decideFire,
  decideGiveUp,
  decideSend,
  decideUpdate,
  recipientOutcome,
  recipientsOf,
  type CollectionView,
  type Draft,
  type RecipientState,
} from '../../src/capabilities/outbound/outbound.decider.js';
import { MAX_COLLECTIONS } from '../../src/capabilities/outbound/outbound.read.js';
import { exactDecider } from '../support/decider-spec-exact.js';

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
    expect(decideSend({ author, memberId, now }, { collection: draft, recipients: null, tooLarge: false }).map((e) => e.type)).to.deep.equal([
      'outbound.scheduled',
    ]);
    const due = { ...draft, sendAt: null };
    expect(decideSend({ author, memberId, now }, { collection: due, recipients: [{ contactId: 'a' }], tooLarge: false }).map((e) => e.type)).to.deep.equal([
      'outbound.sending',
    ]);
    expect(
      decideSend({ author, memberId, now }, { collection: due, recipients: [{ contactId: 'a', skipped: 'erased' }], tooLarge: false }).map((e) => e.type),
    ).to.deep.equal(['outbound.sending', 'outbound.sent']);
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
    const base: RecipientState = {
      collectionState: 'sending',
      recipientStatus: 'pending',
      conversationExists: false,
      contact: { archived: false, erased: false, externalId: 'x' },
      channelKind: 'api',
    };
    expect(recipientOutcome(base)).to.deep.equal({ kind: 'start' });
    expect(recipientOutcome({ ...base, recipientStatus: 'sent' })).to.deep.equal({ kind: 'nothing' });
    expect(recipientOutcome({ ...base, collectionState: 'cancelled' })).to.deep.equal({ kind: 'nothing' });
    expect(recipientOutcome({ ...base, conversationExists: true })).to.deep.equal({ kind: 'already_started' });
    expect(recipientOutcome({ ...base, contact: { archived: false, erased: true, externalId: null } })).to.deep.equal({ kind: 'skip', reason: 'erased' });
    expect(recipientOutcome({ ...base, contact: { archived: false, erased: false, externalId: null } })).to.include({
      kind: 'fail',
      code: 'contact_unreachable',
    });
    expect(completion('o', { pending: 1, sent: 2, failed: 0, skipped: 1 }, { kind: 'start' })[0]!.payload).to.deep.equal({
      id: 'o',
      sent: 3,
      failed: 0,
      skipped: 1,
    });
    expect(completion('o', { pending: 2, sent: 2, failed: 0, skipped: 1 }, { kind: 'start' })).to.deep.equal([]);
  });

  describe('drafts', () => {
    const ID = '00000000-0000-4000-8000-0000000000aa';
    const CH = '00000000-0000-4000-8000-0000000000c1';
    const TAG = '00000000-0000-4000-8000-0000000000f1';
    const draft: Draft = { id: ID, name: 'Spring', channel_id: CH, subject: null, body: 'Hi {{contact.name}}', audience: { tag_ids: [TAG] }, send_at: null };
    const stored = (state: CollectionView['state'] = 'draft') => ({ ...draft, state, sendAt: null });
    const create = exactDecider(decideCreate);
    const update = exactDecider((cmd: Partial<Draft> & { id: string }, s: { current: ReturnType<typeof stored> | null; channelExists: boolean }) =>
      decideUpdate(cmd, s.current, s),
    );
    const remove = exactDecider((_: { id: string }, c: CollectionView | null) => decideDelete(c));

    it('creating a collection appends it as a draft, the whole draft in the payload', () => {
      create
        .given({ count: MAX_COLLECTIONS - 1, channelExists: true })
        .when(draft)
        .then({ type: 'outbound.created', aggregate_type: 'outbound', aggregate_id: ID, payload: draft });
    });
    it('creating a collection on a channel the workspace does not have is refused on the field', () => {
      create.given({ count: 0, channelExists: false }).when(draft).thenRefuses({ code: 'unknown_channel', status: 400, field: 'channel_id' });
    });
    it(`creating a collection beyond the ${MAX_COLLECTIONS} of a workspace is refused`, () => {
      create.given({ count: MAX_COLLECTIONS, channelExists: true }).when(draft).thenRefuses({ code: 'limit_reached', status: 422 });
    });

    it('changing a draft records only the fields that change (an audience compared by content)', () => {
      update
        .given({ current: stored(), channelExists: true })
        .when({ id: ID, name: 'Spring', body: 'Hello', audience: { tag_ids: [TAG] }, send_at: '2026-03-01T09:00:00.000Z' })
        .then({
          type: 'outbound.updated',
          aggregate_type: 'outbound',
          aggregate_id: ID,
          payload: { id: ID, body: 'Hello', send_at: '2026-03-01T09:00:00.000Z' },
        });
      update.given({ current: stored(), channelExists: true }).when({ id: ID, name: 'Spring', subject: null }).thenNothing();
    });
    it('changing a collection not loaded is a 404; one that is no longer a draft is refused', () => {
      update.given({ current: null, channelExists: true }).when({ id: ID, name: 'x' }).thenRefuses({ code: 'not_found', status: 404 });
      for (const state of ['scheduled', 'sending', 'sent', 'cancelled'] as const) {
        update
          .given({ current: stored(state), channelExists: true })
          .when({ id: ID, name: 'x' })
          .thenRefuses({ code: 'outbound_not_draft', status: 409 });
      }
    });
    it('moving a draft to a channel the workspace does not have is refused on the field', () => {
      update
        .given({ current: stored(), channelExists: false })
        .when({ id: ID, channel_id: CH })
        .thenRefuses({ code: 'unknown_channel', status: 400, field: 'channel_id' });
    });

    it('deleting a draft appends its deletion', () => {
      remove
        .given(stored())
        .when({ id: ID })
        .then({ type: 'outbound.deleted', aggregate_type: 'outbound', aggregate_id: ID, payload: { id: ID } });
    });
    it('deleting a collection not loaded is a 404; one that is no longer a draft is refused', () => {
      remove.given(null).when({ id: ID }).thenRefuses({ code: 'not_found', status: 404 });
      for (const state of ['scheduled', 'sending', 'sent', 'cancelled'] as const)
        remove.given(stored(state)).when({ id: ID }).thenRefuses({ code: 'outbound_not_draft', status: 409 });
    });
  });

  describe('giving up on a recipient', () => {
    const giveUp = exactDecider((cmd: { collectionId: string; contactId: string; message: string }, s: Parameters<typeof decideGiveUp>[0]) =>
      decideGiveUp(s, cmd),
    );
    const cmd = { collectionId: 'o', contactId: 'k1', message: 'the start kept failing' };
    const counts = { pending: 2, sent: 3, failed: 0, skipped: 1 };
    it('giving up on a pending recipient of a sending collection fails it with send_failed', () => {
      giveUp
        .given({ collectionState: 'sending', recipientStatus: 'pending', counts })
        .when(cmd)
        .then({
          type: 'outbound_recipient.failed',
          aggregate_type: 'outbound',
          aggregate_id: 'o',
          payload: { collection_id: 'o', contact_id: 'k1', code: 'send_failed', message: 'the start kept failing' },
        });
    });
    it('giving up on the last pending recipient also ends the sending, counting it failed', () => {
      giveUp
        .given({ collectionState: 'sending', recipientStatus: 'pending', counts: { ...counts, pending: 1 } })
        .when(cmd)
        .then(
          {
            type: 'outbound_recipient.failed',
            aggregate_type: 'outbound',
            aggregate_id: 'o',
            payload: { collection_id: 'o', contact_id: 'k1', code: 'send_failed', message: 'the start kept failing' },
          },
          { type: 'outbound.sent', aggregate_type: 'outbound', aggregate_id: 'o', payload: { id: 'o', sent: 3, failed: 1, skipped: 1 } },
        );
    });
    it('giving up on a recipient no longer pending, or of a collection no longer sending, appends nothing', () => {
      for (const recipientStatus of ['sent', 'failed', 'skipped', 'cancelled', null])
        giveUp.given({ collectionState: 'sending', recipientStatus, counts }).when(cmd).thenNothing();
      for (const collectionState of ['cancelled', 'sent', null] as const)
        giveUp.given({ collectionState, recipientStatus: 'pending', counts }).when(cmd).thenNothing();
    });
  });
});
