import type { NewEvent } from '../../eventstore/envelope.js';
import { Conflict, NotFound } from '../../platform/errors.js';

export interface ChannelView {
  id: string;
  name: string;
  webhookUrl: string | null;
}

const channelEvent = (type: string, id: string, payload: Record<string, unknown>): NewEvent => ({
  type,
  aggregate_type: 'channel',
  aggregate_id: id,
  payload: { channel_id: id, ...payload },
});

export interface CreateChannel {
  channelId: string;
  kind: 'api';
  name: string;
  source: string;
  defaultTeamId: string | null;
}

/** One channel per source: a second `api` channel for the same source is refused. */
export function decideCreateChannel(cmd: CreateChannel, s: { sourceTaken: boolean }): NewEvent[] {
  if (s.sourceTaken) throw new Conflict('channel_source_taken', `An ${cmd.kind} channel for the source "${cmd.source}" already exists.`);
  return [channelEvent('channel.created', cmd.channelId, { kind: cmd.kind, name: cmd.name, source: cmd.source, default_team_id: cmd.defaultTeamId })];
}

export function decideUpdateChannel(cmd: { channelId: string; name?: string; webhookUrl?: string | null }, channel: ChannelView | null): NewEvent[] {
  if (!channel) throw new NotFound('channel');
  const changes: Record<string, unknown> = {};
  if (cmd.name !== undefined && cmd.name !== channel.name) changes.name = cmd.name;
  if (cmd.webhookUrl !== undefined && cmd.webhookUrl !== channel.webhookUrl) changes.webhook_url = cmd.webhookUrl;
  return Object.keys(changes).length ? [channelEvent('channel.updated', cmd.channelId, changes)] : [];
}

export function decideRotateSecret(cmd: { channelId: string; previousValidUntil: string }, channel: ChannelView | null): NewEvent[] {
  if (!channel) throw new NotFound('channel');
  return [channelEvent('channel.secret_rotated', cmd.channelId, { previous_valid_until: cmd.previousValidUntil })];
}
