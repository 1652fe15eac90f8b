// What a decision needs to know about a channel, kept in memory once it is
// known to be committed. Nothing changes a channel's tenant after
// channel.created, but a channel can be deleted: the process that deletes it
// forgets it at once (forgetChannelFacts), and every other process looks again
// after FACTS_TTL_MS, so a channel deleted elsewhere may still be named by a new
// conversation for those few seconds, as by a request that came just before
// the deletion. (Disabling a channel changes none of these facts.) The default team is the
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
/** How long another process may go on believing in a channel deleted elsewhere. */
export const FACTS_TTL_MS = 5_000;
const known = new Map<string, { facts: ChannelFacts; until: number }>();

/** The channel was deleted (by this process): no decision here may find it any more. */
export function forgetChannelFacts(tenantId: string, channelId: string): void {
  known.delete(`${tenantId}:${channelId.toLowerCase()}`);
}

/** The channel's facts, or null when the workspace has no such channel. */
export async function channelFacts(db: Db, tenantId: string, channelId: string): Promise<ChannelFacts | null> {
  if (!isUuid(channelId)) return null;
  const key = `${tenantId}:${channelId.toLowerCase()}`;
  const hit = known.get(key);
  if (hit && hit.until > Date.now()) return hit.facts;
  const res = await db.raw('SELECT default_team_id, xmin = pg_current_xact_id_if_assigned()::xid AS own_write FROM channels WHERE tenant_id = ? AND id = ?', [
    tenantId,
    channelId,
  ]);
  const row = res.rows[0] as { default_team_id: string | null; own_write: boolean | null } | undefined;
  if (!row) return null;
  const facts: ChannelFacts = { defaultTeamId: row.default_team_id };
  if (row.own_write !== true) {
    if (known.size >= MAX_ENTRIES) known.delete(known.keys().next().value!);
    known.delete(key);
    known.set(key, { facts, until: Date.now() + FACTS_TTL_MS });
  }
  return facts;
}
