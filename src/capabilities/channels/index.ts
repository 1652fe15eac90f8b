// Channels: signed `api` channels a bridge posts into (the inbound route lives
// with conversations) and whose webhook_url receives teammates' replies.
import { defineModule } from '../capability.js';
import { channelEvents } from './channels.events.js';
import { channelsProjector } from './channels.projection.js';
import { channelsRoutes } from './channels.routes.js';
import { MAX_SUPPORT_LOCAL_PART } from './channels.decider.js';
import { defineErrors } from '../../platform/errors.js';

export { ChannelSecrets, type FirstFiling } from './channel-secrets.js';
export { signedChannelRoute, SIGNATURE_MEMORY_MS, TIMESTAMP_TOLERANCE_S, type SignedPost, type SignedRouteSpec } from './signed-post.js';
export { channelFacts, type ChannelFacts } from './channel-facts.js';
export { channelByAddress, channelIdsOfTeam, findChannel, type ChannelRow } from './channels.read.js';
export type { ChannelEvent } from './channels.events.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  channel_source_taken: { status: 409, when: 'Another channel of the workspace already has this `source`: one channel per source.' },
  channels_not_configured: {
    status: 422,
    when: 'Creating a channel with a secret to seal (an `api` channel, an `email` channel with a webhook_secret or a DKIM key) while the operator has not set SERVICE_CHANNELS_SECRET.',
  },
  channel_address_taken: { status: 409, when: 'Creating an `email` channel for an address another e-mail channel of the instance receives at.' },
  address_required: { status: 400, when: 'Creating an `email` channel without `address`.' },
  address_has_tag: { status: 400, when: 'Creating an `email` channel whose support address has a `+tag` (the service tags it per conversation).' },
  address_too_long: {
    status: 400,
    when: `Creating an \`email\` channel whose support address has more than ${MAX_SUPPORT_LOCAL_PART} characters before the @ (its reply addresses would pass the 64 of RFC 5321).`,
  },
  webhook_secret_required: { status: 400, when: 'Creating an `api` channel without `webhook_secret`.' },
  webhook_url_not_for_email: { status: 400, when: 'Giving an `email` channel a `webhook_url` (its replies leave by SMTP).' },
  invalid_dkim_key: { status: 400, when: '`dkim.private_key` is not an RSA private key in PEM.' },
  unknown_team: { status: 400, when: '`default_team_id` names no team of the workspace.' },
});

export const channelsModule = defineModule({
  name: 'channels',
  errors,
  tables: ['channel_secrets', 'inbound_signatures', 'channel_addresses'],
  events: channelEvents,
  projectors: [channelsProjector],
  routes: channelsRoutes,
});
