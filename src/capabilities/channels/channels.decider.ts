import { BadRequest, Conflict, NotFound } from '../../platform/errors.js';
import { domainNotVerified } from '../email-domains/index.js';
import type { ChannelEvent } from './channels.events.js';

export const addressTaken = () => new Conflict('channel_address_taken', 'Another e-mail channel already receives at this address.');

export interface ChannelView {
  id: string;
  name: string;
  webhookUrl: string | null;
  enabled: boolean;
}

export interface CreateChannel {
  channelId: string;
  kind: 'api' | 'email';
  name: string;
  /** an `email` channel's support address (also its source) */
  address?: string | null;
  dkimSelector?: string | null;
  source: string;
  defaultTeamId: string | null;
  webhookUrl: string | null;
}

/**
 * The longest local part (before the @) of an e-mail channel's support address. Each conversation's reply
 * address is the support address tagged `+<42 characters>` (src/capabilities/email/addresses.ts), and RFC 5321
 * (4.5.3.1.1) caps a local part at 64 octets: 64 - 43 = 21. Longer, some MTAs refuse the reply address, and a
 * customer's reply would bounce.
 */
export const MAX_SUPPORT_LOCAL_PART = 21;

/** Why a support address cannot be an e-mail channel's, or null. */
function supportAddressProblem(address: string): BadRequest | null {
  const local = address.slice(0, address.lastIndexOf('@'));
  // The `+` tag is how replies find their conversation: a support address with one of its own would lose it.
  if (local.includes('+'))
    return new BadRequest('address_has_tag', "An e-mail channel's support address has no `+tag`: the service tags it for each conversation.", 'address');
  if (local.length > MAX_SUPPORT_LOCAL_PART)
    return new BadRequest(
      'address_too_long',
      `An e-mail channel's support address has at most ${MAX_SUPPORT_LOCAL_PART} characters before the @, so that its reply addresses (a 43-character tag added) stay within the 64 that RFC 5321 allows.`,
      'address',
    );
  return null;
}

/**
 * One channel per source: a second `api` channel for the same source is refused, a second `email` channel for the same
 * address too. An `email` channel's address is on a domain its workspace verified (`domainVerified`; undefined when
 * the operator turned the check off: EMAIL_DOMAIN_VERIFICATION=off).
 */
export function decideCreateChannel(cmd: CreateChannel, s: { sourceTaken: boolean; defaultTeamExists?: boolean; domainVerified?: boolean }): ChannelEvent[] {
  const bad = cmd.kind === 'email' && cmd.address ? supportAddressProblem(cmd.address) : null;
  if (bad) throw bad;
  if (cmd.kind === 'email' && cmd.address && s.domainVerified === false) {
    const domain = cmd.address.slice(cmd.address.lastIndexOf('@') + 1).toLowerCase();
    throw domainNotVerified(domain, 'add it (POST /api/email_domains), publish its TXT record and verify it before making a channel on it.');
  }
  if (cmd.defaultTeamId && !s.defaultTeamExists) throw new BadRequest('unknown_team', 'default_team_id names no team of this workspace.', 'default_team_id');
  // An e-mail channel's source is its address: taken, it is refused as the route's check across workspaces refuses it.
  if (s.sourceTaken && cmd.kind === 'email') throw addressTaken();
  if (s.sourceTaken) throw new Conflict('channel_source_taken', `An ${cmd.kind} channel for the source "${cmd.source}" already exists.`);
  return [
    {
      type: 'channel.created',
      aggregate_type: 'channel',
      aggregate_id: cmd.channelId,
      payload: {
        channel_id: cmd.channelId,
        kind: cmd.kind,
        name: cmd.name,
        source: cmd.source,
        default_team_id: cmd.defaultTeamId,
        ...(cmd.address ? { address: cmd.address } : {}),
        ...(cmd.dkimSelector ? { dkim_selector: cmd.dkimSelector } : {}),
      },
    },
    ...(cmd.webhookUrl
      ? decideUpdateChannel({ channelId: cmd.channelId, webhookUrl: cmd.webhookUrl }, { id: cmd.channelId, name: cmd.name, webhookUrl: null, enabled: true })
      : []),
  ];
}

export interface ChannelChanges {
  channelId: string;
  name?: string;
  webhookUrl?: string | null;
  enabled?: boolean;
}

export function decideUpdateChannel(cmd: ChannelChanges, channel: ChannelView | null): ChannelEvent[] {
  if (!channel) throw new NotFound('channel');
  const changes: { name?: string; webhook_url?: string | null; enabled?: boolean } = {};
  if (cmd.name !== undefined && cmd.name !== channel.name) changes.name = cmd.name;
  if (cmd.webhookUrl !== undefined && cmd.webhookUrl !== channel.webhookUrl) changes.webhook_url = cmd.webhookUrl;
  if (cmd.enabled !== undefined && cmd.enabled !== channel.enabled) changes.enabled = cmd.enabled;
  return Object.keys(changes).length
    ? [{ type: 'channel.updated', aggregate_type: 'channel', aggregate_id: cmd.channelId, payload: { channel_id: cmd.channelId, ...changes } }]
    : [];
}

export function decideRotateSecret(cmd: { channelId: string; previousValidUntil: string }, channel: ChannelView | null): ChannelEvent[] {
  if (!channel) throw new NotFound('channel');
  return [
    {
      type: 'channel.secret_rotated',
      aggregate_type: 'channel',
      aggregate_id: cmd.channelId,
      payload: { channel_id: cmd.channelId, previous_valid_until: cmd.previousValidUntil },
    },
  ];
}

/** Deletes a channel; its conversations stay. */
export function decideDeleteChannel(cmd: { channelId: string }, channel: ChannelView | null): ChannelEvent[] {
  if (!channel) throw new NotFound('channel');
  return [{ type: 'channel.deleted', aggregate_type: 'channel', aggregate_id: cmd.channelId, payload: { channel_id: cmd.channelId } }];
}
