import { randomBytes } from 'node:crypto';
import type { CommandSpec } from '../../commands/command.js';
import type { Ids } from '../../platform/ids.js';
import { teamExists } from '../teams/index.js';
import { domainVerified } from '../email-domains/index.js';
import {
  decideCreateChannel,
  decideDeleteChannel,
  decideRotateSecret,
  decideUpdateChannel,
  type ChannelChanges,
  type ChannelView,
  type CreateChannel,
} from './channels.decider.js';
import { forgetChannelFacts } from './channel-facts.js';
import type { ChannelEvent } from './channels.events.js';
import { channelSourceTaken, channelView, findChannel } from './channels.read.js';
import type { ChannelSecrets } from './channel-secrets.js';
import { claimAddress, releaseAddress } from './channel-addresses.js';

/** "Source" of an `api` channel: the outside system its bridge connects, named by the caller or derived from the name. */
export const normalizeSource = (s: string): string => s.trim().toLowerCase().replace(/\s+/g, '-');

export const createChannel = (
  input: CreateChannel & {
    secret: string | null;
    secretId: string;
    dkim?: { selector: string; privateKey: string } | null;
    /** an `email` channel's domain must be verified by the workspace (false: EMAIL_DOMAIN_VERIFICATION=off) */
    domainCheck?: boolean;
  },
  secrets: ChannelSecrets,
): CommandSpec<{ sourceTaken: boolean; defaultTeamExists: boolean; domainVerified?: boolean }, ChannelEvent> => ({
  name: 'CreateChannel',
  load: async (db, ctx) => ({
    sourceTaken: await channelSourceTaken(db, ctx.tenantId, input.kind, input.source),
    defaultTeamExists: await teamExists(db, ctx.tenantId, input.defaultTeamId),
    ...(input.kind === 'email' && input.address && input.domainCheck
      ? { domainVerified: await domainVerified(db, ctx.tenantId, input.address.slice(input.address.lastIndexOf('@') + 1)) }
      : {}),
  }),
  decide: (s) => decideCreateChannel(input, s),
  // The caller chose the secret: a resumed request carries the same one, so a replay owes nothing.
  beside: async (db, events, ctx) => {
    const channelId = events[0]!.aggregate_id;
    // First: of two workspaces creating one address at once, the second waits here for the first and is refused.
    if (input.kind === 'email' && input.address) await claimAddress(db, { tenantId: ctx.tenantId, channelId, address: input.address });
    if (input.secret !== null) await secrets.add(db, { tenantId: ctx.tenantId, channelId, id: input.secretId, secret: input.secret, now: ctx.now });
    if (input.dkim) await secrets.addDkimKey(db, { tenantId: ctx.tenantId, channelId, ...input.dkim });
  },
});

export const updateChannel = (input: ChannelChanges): CommandSpec<ChannelView | null, ChannelEvent> => ({
  name: 'UpdateChannel',
  load: async (db, ctx) => channelView(await findChannel(db, ctx.tenantId, input.channelId)),
  decide: (c) => decideUpdateChannel(input, c),
});

/** Deletes a channel with its secrets and remembered signatures; its conversations stay. */
export const deleteChannel = (input: { channelId: string }, secrets: ChannelSecrets): CommandSpec<ChannelView | null, ChannelEvent> => ({
  name: 'DeleteChannel',
  load: async (db, ctx) => channelView(await findChannel(db, ctx.tenantId, input.channelId)),
  decide: (c) => decideDeleteChannel(input, c),
  beside: async (db, events, ctx) => {
    if (events.length === 0) return;
    await secrets.removeAll(db, ctx.tenantId, input.channelId);
    await releaseAddress(db, ctx.tenantId, input.channelId);
    forgetChannelFacts(ctx.tenantId, input.channelId);
  },
});

/**
 * A new secret, returned once. The one it replaces verifies until the grace period ends (none: it stops now), and
 * only that one: every secret an earlier rotation retired stops at once, so a leaked secret is cut off by rotating
 * twice, or once with no grace.
 */
export function rotateChannelSecret(input: { channelId: string; graceSeconds: number; now: Date }, secrets: ChannelSecrets, ids: Ids) {
  const secret = `chsec_${randomBytes(32).toString('base64url')}`;
  const graceUntil = new Date(input.now.getTime() + input.graceSeconds * 1000);
  const rekey: CommandSpec<ChannelView | null, ChannelEvent>['beside'] = async (db, _events, ctx) => {
    await secrets.retireCurrent(db, ctx.tenantId, input.channelId, input.graceSeconds > 0 ? graceUntil : null);
    await secrets.add(db, { tenantId: ctx.tenantId, channelId: input.channelId, id: ids.uuid(), secret, now: ctx.now });
  };
  const spec: CommandSpec<ChannelView | null, ChannelEvent> = {
    name: 'RotateChannelSecret',
    load: async (db, ctx) => channelView(await findChannel(db, ctx.tenantId, input.channelId)),
    decide: (c) => decideRotateSecret({ channelId: input.channelId, previousValidUntil: graceUntil.toISOString() }, c),
    beside: rekey,
    // The first attempt's secret was never shown: the resumed request's secret takes its place.
    replayed: (db, _events, ctx) => secrets.replaceCurrent(db, ctx.tenantId, input.channelId, secret),
  };
  return { spec, secret, graceUntil };
}
