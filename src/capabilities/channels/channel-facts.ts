// What a decision needs to know about a channel, kept in memory once it is
// known to be committed. A channel is never deleted, and nothing changes its
// tenant after channel.created: once committed, these facts hold for good, in
// every process, so they need no invalidation. The default team is the one the
// channel was created with: team.deleted clears it in the read model but not
// here, so a caller checks the team still exists (conversations' startConversation).
//
// A lookup runs in the command's transaction. A row written by that very
// transaction (a channel created earlier in the same group commit) may yet roll
// back: it answers, but is not kept (its xmin is the transaction's own id).
import type { Db } from '../../commands/command.js';
import { isUuid } from '../../platform/ids.js';

export interface ChannelFacts {
  defaultTeamId: string | null;
}

const MAX_ENTRIES = 10_000;
const known = new Map<string, ChannelFacts>();

/** The channel's facts, or null when the workspace has no such channel. */
export async function channelFacts(db: Db, tenantId: string, channelId: string): Promise<ChannelFacts | null> {
  if (!isUuid(channelId)) return null;
  const key = `${tenantId}:${channelId.toLowerCase()}`;
  const hit = known.get(key);
  if (hit) return hit;
  const res = await db.raw('SELECT default_team_id, xmin = pg_current_xact_id_if_assigned()::xid AS own_write FROM channels WHERE tenant_id = ? AND id = ?', [
    tenantId,
    channelId,
  ]);
  const row = res.rows[0] as { default_team_id: string | null; own_write: boolean | null } | undefined;
  if (!row) return null;
  const facts: ChannelFacts = { defaultTeamId: row.default_team_id };
  if (row.own_write !== true) {
    if (known.size >= MAX_ENTRIES) known.delete(known.keys().next().value!);
    known.set(key, facts);
  }
  return facts;
}
