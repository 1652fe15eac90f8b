// Channel rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import { decideCreateChannel, decideDeleteChannel, decideRotateSecret, decideUpdateChannel } from '../../src/capabilities/channels/channels.decider.js';
import { decider } from '../support/decider-spec.js';
import { exactDecider } from '../support/decider-spec-exact.js';

describe('channels decider (unit)', () => {
  const channels = decider(decideCreateChannel);
  it('a channel created with a webhook_url appends its creation and the url', () => {
    channels
      .given({ sourceTaken: false })
      .when({ channelId: 'ch', kind: 'api', name: 'B', source: 'b', defaultTeamId: null, webhookUrl: 'https://x' })
      .then({ type: 'channel.created', payload: { source: 'b' } }, { type: 'channel.updated', payload: { webhook_url: 'https://x' } });
  });
  it('a second channel for a source is refused', () => {
    channels
      .given({ sourceTaken: true })
      .when({ channelId: 'ch', kind: 'api', name: 'B', source: 'b', defaultTeamId: null, webhookUrl: null })
      .thenRefuses('channel_source_taken');
  });
  it('a second e-mail channel for an address is refused as the address taken', () => {
    channels
      .given({ sourceTaken: true })
      .when({ channelId: 'ch', kind: 'email', name: 'S', source: 's@x.example', address: 's@x.example', defaultTeamId: null, webhookUrl: null })
      .thenRefuses('channel_address_taken');
  });
  it('an e-mail channel on a domain the workspace has not verified is refused; on a verified one, or with the check off, it is made', () => {
    const email = { channelId: 'ch', kind: 'email' as const, name: 'S', source: 's@x.example', address: 's@x.example', defaultTeamId: null, webhookUrl: null };
    channels.given({ sourceTaken: false, domainVerified: false }).when(email).thenRefuses('domain_not_verified');
    channels
      .given({ sourceTaken: false, domainVerified: true })
      .when(email)
      .then({ type: 'channel.created', payload: { address: 's@x.example' } });
    // undefined: EMAIL_DOMAIN_VERIFICATION=off, nothing was checked
    channels
      .given({ sourceTaken: false })
      .when(email)
      .then({ type: 'channel.created', payload: { address: 's@x.example' } });
  });
  it('an update that changes nothing appends nothing', () => {
    decider(decideUpdateChannel)
      .given({ id: 'ch', name: 'B', webhookUrl: null, enabled: true })
      .when({ channelId: 'ch', name: 'B', webhookUrl: null })
      .thenNothing();
  });

  it('a channel whose default team is not a team of the workspace is refused on the field', () => {
    exactDecider(decideCreateChannel)
      .given({ sourceTaken: false, defaultTeamExists: false })
      .when({ channelId: 'ch', kind: 'api', name: 'B', source: 'b', defaultTeamId: 'team-9', webhookUrl: null })
      .thenRefuses({ code: 'unknown_team', status: 400, field: 'default_team_id' });
  });
  it("an update of a channel not loaded (none, or another workspace's) is a 404", () => {
    exactDecider(decideUpdateChannel).given(null).when({ channelId: 'ch', name: 'B' }).thenRefuses({ code: 'not_found', status: 404 });
  });

  const rotate = exactDecider(decideRotateSecret);
  it('rotating the secret of a channel appends the rotation, naming until when the previous secret is still accepted', () => {
    rotate
      .given({ id: 'ch', name: 'B', webhookUrl: null, enabled: true })
      .when({ channelId: 'ch', previousValidUntil: '2026-01-02T00:00:00.000Z' })
      .then({
        type: 'channel.secret_rotated',
        aggregate_type: 'channel',
        aggregate_id: 'ch',
        payload: { channel_id: 'ch', previous_valid_until: '2026-01-02T00:00:00.000Z' },
      });
  });
  it("rotating the secret of a channel not loaded (none, or another workspace's) is a 404", () => {
    rotate.given(null).when({ channelId: 'ch', previousValidUntil: '2026-01-02T00:00:00.000Z' }).thenRefuses({ code: 'not_found', status: 404 });
  });

  it('disabling and enabling a channel appends only a change of `enabled`', () => {
    const update = exactDecider(decideUpdateChannel);
    const ch = { id: 'ch', name: 'B', webhookUrl: 'https://x', enabled: true };
    update
      .given(ch)
      .when({ channelId: 'ch', enabled: false })
      .then({ type: 'channel.updated', aggregate_type: 'channel', aggregate_id: 'ch', payload: { channel_id: 'ch', enabled: false } });
    update.given(ch).when({ channelId: 'ch', enabled: true }).thenNothing();
    update
      .given({ ...ch, enabled: false })
      .when({ channelId: 'ch', enabled: true })
      .then({ type: 'channel.updated', aggregate_type: 'channel', aggregate_id: 'ch', payload: { channel_id: 'ch', enabled: true } });
  });
  it("deleting a channel appends its deletion; one not loaded (none, or another workspace's) is a 404", () => {
    const remove = exactDecider(decideDeleteChannel);
    remove
      .given({ id: 'ch', name: 'B', webhookUrl: null, enabled: false })
      .when({ channelId: 'ch' })
      .then({ type: 'channel.deleted', aggregate_type: 'channel', aggregate_id: 'ch', payload: { channel_id: 'ch' } });
    remove.given(null).when({ channelId: 'ch' }).thenRefuses({ code: 'not_found', status: 404 });
  });
});
