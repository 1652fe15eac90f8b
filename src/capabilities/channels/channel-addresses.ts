// The addresses e-mail channels receive at, one row each beside the log
// (channel_addresses, migration 043), under a unique index on lower(address)
// across every workspace: the wall that keeps an address unique in the instance
// when two workspaces create it at the same time (each appends under its own
// lock, so no check before the command can see the other).
import type { Db } from '../../commands/command.js';
import { addressTaken } from './channels.decider.js';

/** Claims the address for the channel, in the creating command's transaction; 409 channel_address_taken when another channel holds it. */
export async function claimAddress(db: Db, row: { tenantId: string; channelId: string; address: string }): Promise<void> {
  try {
    await db('channel_addresses').insert({ tenant_id: row.tenantId, channel_id: row.channelId, address: row.address.toLowerCase() });
  } catch (e) {
    // The transaction is spoilt either way; the caller hears why.
    if ((e as { code?: string; constraint?: string }).code === '23505') throw addressTaken();
    throw e;
  }
}

/** Gives the channel's address up (the channel is deleted): another channel may take it. */
export async function releaseAddress(db: Db, tenantId: string, channelId: string): Promise<void> {
  await db('channel_addresses').where({ tenant_id: tenantId, channel_id: channelId }).del();
}
