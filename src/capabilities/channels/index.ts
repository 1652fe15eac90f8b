// Channels: signed `api` channels a bridge posts into (the inbound route lives
// with conversations) and whose webhook_url receives teammates' replies.
import { defineModule } from '../capability.js';
import { channelEvents } from './channels.events.js';
import { channelsProjector } from './channels.projection.js';
import { channelsRoutes } from './channels.routes.js';

export { ChannelSecrets } from './channel-secrets.js';
export { channelFacts, type ChannelFacts } from './channel-facts.js';
export { channelIdsOfTeam, findChannel, type ChannelRow } from './channels.read.js';
export type { ChannelEvent } from './channels.events.js';

export const channelsModule = defineModule({ name: 'channels', tables: ['channel_secrets'], events: channelEvents, projectors: [channelsProjector], routes: channelsRoutes });
