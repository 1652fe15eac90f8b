// Deciders read as specifications: given the loaded state, when a command, then events or a coded refusal.
import { decideCreateChannel, decideUpdateChannel } from '../../src/capabilities/channels/channels.decider.js';
import { decideManage, type ConversationView } from '../../src/capabilities/conversations/conversations.decider.js';
import { decideChangeRole, decideRemove } from '../../src/capabilities/members/members.decider.js';
import { decideDeleteEndpoint, decideUpdateEndpoint } from '../../src/capabilities/webhooks/webhooks.decider.js';
import { decider } from '../support/decider-spec.js';

const author = { type: 'member' as const, id: 'm1' };
const open: ConversationView = { id: 'c1', channelId: 'ch1', state: 'open', assigneeId: null, teamId: null };

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

  it('endpoints: an update records only what changed; a delete of a missing endpoint is a 404', () => {
    const current = { id: 'e', url: 'https://a', eventNames: [], description: '', enabled: true };
    decider(decideUpdateEndpoint).given(current).when({ endpointId: 'e', changes: { enabled: false, url: 'https://a' } }).then({ type: 'webhook_endpoint.updated', payload: { endpoint_id: 'e', enabled: false } });
    decider(decideDeleteEndpoint).given(null).when({ endpointId: 'e' }).thenRefuses('not_found');
  });
});
