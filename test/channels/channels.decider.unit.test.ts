// Channel rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import { decideCreateChannel, decideUpdateChannel } from '../../src/capabilities/channels/channels.decider.js';
import { decider } from '../support/decider-spec.js';

describe('channels decider (unit)', () => {
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
});
