// Deciders read as specifications: given the loaded state, when a command, then events or a coded refusal.
import { expect } from 'chai';
import { decideCreateChannel, decideUpdateChannel } from '../../src/capabilities/channels/channels.decider.js';
import {
  decideArchiveContact,
  contactKeys,
  decideAttachCompany,
  decideCreateContact,
  decideDetachCompany,
  decideFindOrFillContact,
  decideTagContact,
  decideUpdateContact,
  type ContactState,
} from '../../src/capabilities/contacts/contacts.decider.js';
import { decideManage, decideTagConversation, type ConversationView } from '../../src/capabilities/conversations/conversations.decider.js';
import { decideCreateTag, decideDeleteTag, decideRenameTag } from '../../src/capabilities/tags/tags.decider.js';
import { decideChangeRole, decideRemove } from '../../src/capabilities/members/members.decider.js';
import { decideDeleteEndpoint, decideUpdateEndpoint } from '../../src/capabilities/webhooks/webhooks.decider.js';
import { decider } from '../support/decider-spec.js';

const author = { type: 'member' as const, id: 'm1' };
const open: ConversationView = { id: 'c1', channelId: 'ch1', state: 'open', assigneeId: null, teamId: null, tagIds: [] };

describe('deciders as specifications (unit)', () => {
  const manage = decider((cmd: Parameters<typeof decideManage>[0], s: { c: ConversationView | null }) => decideManage(cmd, s.c, { assigneeActive: true }));

  it('closing an open conversation appends a close part carrying the closed state', () => {
    manage.given({ c: open }).when({ partId: 'p', author, body: null, messageType: 'close' }).then({ type: 'conversation_part.created', aggregate_id: 'c1', payload: { part_type: 'close', state: 'closed', snoozed_until: null } });
  });
  it('closing a closed conversation is refused', () => {
    manage.given({ c: { ...open, state: 'closed' } }).when({ partId: 'p', author, body: null, messageType: 'close' }).thenRefuses('conversation_already_closed');
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

  const channels = decider(decideCreateChannel);
  it('a channel created with a webhook_url appends its creation and the url', () => {
    channels
      .given({ sourceTaken: false })
      .when({ channelId: 'ch', kind: 'api', name: 'B', source: 'b', defaultTeamId: null, webhookUrl: 'https://x' })
      .then({ type: 'channel.created', payload: { source: 'b' } }, { type: 'channel.updated', payload: { webhook_url: 'https://x' } });
  });
  it('a second channel for a source is refused', () => {
    channels.given({ sourceTaken: true }).when({ channelId: 'ch', kind: 'api', name: 'B', source: 'b', defaultTeamId: null, webhookUrl: null }).thenRefuses('channel_source_taken');
  });
  it('an update that changes nothing appends nothing', () => {
    decider(decideUpdateChannel).given({ id: 'ch', name: 'B', webhookUrl: null }).when({ channelId: 'ch', name: 'B', webhookUrl: null }).thenNothing();
  });

  const owners = (n: number, target: 'owner' | 'agent') => ({ actor: { memberId: 'm0', role: 'owner' as const }, target: { id: 'm1', role: target, status: 'active' as const }, activeOwners: n });
  it('the last owner can be neither demoted nor removed', () => {
    decider(decideChangeRole).given(owners(1, 'owner')).when({ memberId: 'm1', role: 'admin' }).thenRefuses('last_owner');
    decider(decideRemove).given(owners(1, 'owner')).when({ memberId: 'm1' }).thenRefuses('last_owner');
    decider(decideChangeRole).given(owners(2, 'owner')).when({ memberId: 'm1', role: 'admin' }).then({ type: 'member.role_changed', payload: { from: 'owner', to: 'admin' } });
  });

  const ann: ContactState = { id: 'k1', externalId: 'x1', email: 'ann@x.io', name: 'Ann', phone: null, customAttributes: { tier: 'a', seats: 1 }, archived: false, erased: false, companyIds: ['co1'], tagIds: ['t1'] };
  it('contacts: created with an e-mail or an external_id, never one another contact holds', () => {
    decider(decideCreateContact).given({ holder: null }).when({ id: 'k2', fields: { email: 'b@x.io' } }).then({ type: 'contact.created', payload: { contact_id: 'k2', email: 'b@x.io', external_id: null, custom_attributes: {}, channel_id: null } });
    decider(decideCreateContact).given({ holder: null }).when({ id: 'k2', fields: { name: 'B' } }).thenRefuses('identity_required');
    decider(decideCreateContact).given({ holder: { field: 'email', id: 'k1' } }).when({ id: 'k2', fields: { email: 'ANN@x.io' } }).thenRefuses('contact_exists', 'email');
  });
  it('contacts: an update records only what changed, merges attributes (null removes) and keeps an identity', () => {
    const update = decider(decideUpdateContact);
    update.given({ contact: ann, holder: null }).when({ id: 'k1', fields: { name: 'Ann', custom_attributes: { seats: 2, tier: null } } }).then({ type: 'contact.updated', payload: { contact_id: 'k1', custom_attributes: { seats: 2 } } });
    update.given({ contact: ann, holder: null }).when({ id: 'k1', fields: { name: 'Ann', custom_attributes: { gone: null } } }).thenNothing();
    update.given({ contact: ann, holder: null }).when({ id: 'k1', fields: { email: null, external_id: null } }).thenRefuses('identity_required');
    update.given({ contact: ann, holder: { field: 'external_id', id: 'k9' } }).when({ id: 'k1', fields: { external_id: 'x9' } }).thenRefuses('contact_exists', 'external_id');
    update.given({ contact: { ...ann, erased: true }, holder: null }).when({ id: 'k1', fields: { name: 'B' } }).thenRefuses('contact_erased');
    update.given({ contact: null, holder: null }).when({ id: 'k1', fields: { name: 'B' } }).thenRefuses('not_found');
  });
  it('contacts: archive, unarchive and company links are no-ops when repeated', () => {
    decider(decideArchiveContact).given(ann).when({ id: 'k1', archived: true }).then({ type: 'contact.archived', payload: { contact_id: 'k1' } });
    decider(decideArchiveContact).given(ann).when({ id: 'k1', archived: false }).thenNothing();
    decider(decideArchiveContact).given({ ...ann, archived: true }).when({ id: 'k1', archived: false }).then({ type: 'contact.unarchived' });
    decider(decideAttachCompany).given({ contact: ann, companyExists: true }).when({ id: 'k1', companyId: 'co1' }).thenNothing();
    decider(decideAttachCompany).given({ contact: ann, companyExists: true }).when({ id: 'k1', companyId: 'co2' }).then({ type: 'contact.company_attached', payload: { company_id: 'co2' } });
    decider(decideAttachCompany).given({ contact: ann, companyExists: false }).when({ id: 'k1', companyId: 'co2' }).thenRefuses('not_found');
    decider(decideDetachCompany).given({ contact: ann, companyExists: true }).when({ id: 'k1', companyId: 'co1' }).then({ type: 'contact.company_detached', payload: { company_id: 'co1' } });
    decider(decideDetachCompany).given({ contact: ann, companyExists: true }).when({ id: 'k1', companyId: 'co2' }).thenNothing();
  });
  it('tags: names unique ignoring case, a rename only when it changes, a deletion names what carried the tag', () => {
    const vip = { id: 't1', name: 'VIP' };
    decider(decideCreateTag).given({ count: 0, sameName: null }).when({ id: 't2', name: 'Billing' }).then({ type: 'tag.created', payload: { id: 't2', name: 'Billing' } });
    decider(decideCreateTag).given({ count: 0, sameName: vip }).when({ id: 't2', name: 'vip' }).thenRefuses('tag_exists');
    decider(decideCreateTag).given({ count: 1000, sameName: null }).when({ id: 't2', name: 'x' }).thenRefuses('limit_reached');
    decider(decideRenameTag).given({ tag: vip, sameName: vip }).when({ id: 't1', name: 'VIP' }).thenNothing();
    decider(decideRenameTag).given({ tag: vip, sameName: vip }).when({ id: 't1', name: 'vip' }).then({ type: 'tag.renamed', payload: { id: 't1', name: 'vip' } });
    decider(decideRenameTag).given({ tag: vip, sameName: { id: 't9', name: 'Gold' } }).when({ id: 't1', name: 'gold' }).thenRefuses('tag_exists');
    decider(decideDeleteTag).given({ conversationIds: ['c1'], contactIds: ['k1'] }).when(vip).then({ type: 'tag.deleted', payload: { id: 't1', conversation_ids: ['c1'], contact_ids: ['k1'] } });
  });

  it('tagging is an idempotent delta: twice changes nothing, untagging what is absent changes nothing, an unknown tag is a 404', () => {
    const vip = { id: 't1', name: 'VIP' };
    decider(decideTagConversation).given({ conversation: open, tag: vip }).when({ conversationId: 'c1', tagId: 't1', add: true }).then({ type: 'conversation.tagged', payload: { conversation_id: 'c1', tag_id: 't1', name: 'VIP' } });
    decider(decideTagConversation).given({ conversation: { ...open, tagIds: ['t1'] }, tag: vip }).when({ conversationId: 'c1', tagId: 't1', add: true }).thenNothing();
    decider(decideTagConversation).given({ conversation: open, tag: vip }).when({ conversationId: 'c1', tagId: 't1', add: false }).thenNothing();
    decider(decideTagConversation).given({ conversation: { ...open, tagIds: ['t1'] }, tag: vip }).when({ conversationId: 'c1', tagId: 't1', add: false }).then({ type: 'conversation.untagged', payload: { tag_id: 't1' } });
    decider(decideTagConversation).given({ conversation: open, tag: null }).when({ conversationId: 'c1', tagId: 't9', add: true }).thenRefuses('not_found');
    decider(decideTagConversation).given({ conversation: null, tag: vip }).when({ conversationId: 'c9', tagId: 't1', add: true }).thenRefuses('not_found');
    decider(decideTagContact).given({ contact: ann, tag: vip }).when({ id: 'k1', tagId: 't1', add: true }).thenNothing();
    decider(decideTagContact).given({ contact: ann, tag: vip }).when({ id: 'k1', tagId: 't1', add: false }).then({ type: 'contact.untagged', payload: { contact_id: 'k1', tag_id: 't1' } });
    decider(decideTagContact).given({ contact: { ...ann, erased: true }, tag: vip }).when({ id: 'k1', tagId: 't1', add: true }).thenRefuses('contact_erased');
  });

  it('contacts found from a conversation fill blanks, but not with an e-mail another contact holds', () => {
    const found = { id: 'k1', external_id: 'x1', email: null, name: null, phone: null, taken: ['email'] as const };
    const { events } = decideFindOrFillContact('new', { external_id: 'x1', email: 'held@x.io', name: 'Ann' }, found, null);
    expect(events.map((e) => e.payload)).to.deep.equal([{ contact_id: 'k1', name: 'Ann' }]);
  });

  it('endpoints: an update records only what changed; a delete of a missing endpoint is a 404', () => {
    const current = { id: 'e', url: 'https://a', eventNames: [], description: '', enabled: true };
    decider(decideUpdateEndpoint).given(current).when({ endpointId: 'e', changes: { enabled: false, url: 'https://a' } }).then({ type: 'webhook_endpoint.updated', payload: { endpoint_id: 'e', enabled: false } });
    decider(decideDeleteEndpoint).given(null).when({ endpointId: 'e' }).thenRefuses('not_found');
  });

  it('a contact assertion names, as group-commit keys, its identities (e-mail case-folded) and the contact found; none for an e-mail outside ASCII', () => {
    const found = { id: 'k1', external_id: 'x', email: 'old@example.com', name: null, phone: null };
    expect(contactKeys({ external_id: 'x', email: 'New@Example.COM' }, found)).to.deep.equal(['contact:k1', 'contact:external_id:x', 'contact:email:new@example.com']);
    expect(contactKeys({ id: 'k2' }, null)).to.deep.equal(['contact:k2']);
    expect(contactKeys({ email: 'josé@example.com' }, null)).to.equal(null);
  });
});
