import type { Db } from '../../commands/command.js';
import type { ListSpec } from '../../api/pagination/list.js';
import { isUuid } from '../../platform/ids.js';
import { bool, constant, dateTime, extend, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { Type } from '@sinclair/typebox';
import type { ChannelView } from './channels.decider.js';
import type { ChannelEvent } from './channels.events.js';
import type { CHANNELS } from './channels.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `channels` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type ChannelRow = RowOf<typeof CHANNELS> & {
  kind: Extract<ChannelEvent, { type: 'channel.created' }>['payload']['kind'];
};

export const channelList: ListSpec = {
  itemType: 'channel',
  sorts: { created_at: { column: 'created_at', kind: 'timestamp' }, updated_at: { column: 'updated_at', kind: 'timestamp' } },
  defaultSort: 'created_at',
  defaultOrder: 'asc',
};

export const renderChannel = (c: ChannelRow): Channel => ({
  type: 'channel',
  id: c.id,
  kind: c.kind,
  name: c.name,
  source: c.source,
  default_team_id: c.default_team_id,
  webhook_url: c.webhook_url,
  // Without a webhook_url the channel only receives; replies have nowhere to go.
  receive_only: c.kind === 'api' && c.webhook_url === null,
  enabled: c.enabled,
  address: c.address,
  dkim_selector: c.dkim_selector,
  secret_rotated_at: c.secret_rotated_at?.toISOString() ?? null,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

export const channelsOf = (db: Db, tenantId: string) => db('channels').where({ tenant_id: tenantId });

/** The channels whose default team is this one, by id (a team's deletion names them). */
export async function channelIdsOfTeam(db: Db, tenantId: string, teamId: string): Promise<string[]> {
  return channelsOf(db, tenantId).andWhere({ default_team_id: teamId }).orderBy('id').pluck('id');
}

export async function findChannel(db: Db, tenantId: string, id: string): Promise<ChannelRow | undefined> {
  return isUuid(id) ? channelsOf(db, tenantId).andWhere({ id }).first() : undefined;
}

export async function channelSourceTaken(db: Db, tenantId: string, kind: string, source: string): Promise<boolean> {
  return !!(await channelsOf(db, tenantId).andWhere({ kind, source }).first('id'));
}

/**
 * The e-mail channel with this support address, found across workspaces (the SMTP receiver: the address names
 * the workspace), as the owner role. Undefined when there is none.
 */
export async function channelByAddress(db: Db, address: string): Promise<ChannelRow | undefined> {
  const res = await db.raw("SELECT * FROM channels WHERE lower(address) = lower(?) AND address IS NOT NULL AND kind = 'email' ORDER BY created_at LIMIT 1", [
    address,
  ]);
  return res.rows[0] as ChannelRow | undefined;
}

export const channelView = (c: ChannelRow | undefined): ChannelView | null =>
  c ? { id: c.id, name: c.name, webhookUrl: c.webhook_url, enabled: c.enabled } : null;

export const channelSchema = object(
  {
    type: constant('channel'),
    id: uuid,
    kind: oneOfStrings(['api', 'email']),
    name: str(),
    source: str(),
    default_team_id: nullable(str()),
    webhook_url: nullable(str()),
    receive_only: bool,
    enabled: Type.Boolean({
      description: 'false: disabled. Its signed routes answer the same empty 401 as an unknown channel, and nothing is sent to its bridge.',
    }),
    address: nullable(str({ description: 'The support address of an `email` channel; null for `api`.' })),
    dkim_selector: nullable(str({ description: 'The DKIM selector replies are signed with; null when they are not signed.' })),
    secret_rotated_at: nullable(dateTime),
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'Channel' },
);
export type Channel = Static<typeof channelSchema>;

export const rotatedChannelSchema = extend(
  channelSchema,
  { webhook_secret: str({ description: 'The new secret, shown this once.' }), previous_secret_valid_until: dateTime },
  { title: 'ChannelWithRotatedSecret' },
);
