import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// The address of an e-mail channel is unique in the instance (issue 32): the
// SMTP receiver finds the workspace by it. Workspaces append under locks of
// their own, so the check the create route makes across workspaces cannot see a
// create in another workspace that has not committed yet, and both went in.
// `channel_addresses` holds each e-mail channel's address, lower-cased, under a
// unique index on lower(address): the create command inserts its row beside the
// log, in its own transaction and before the append, so of two concurrent
// creates of one address the second waits for the first and fails there (409
// channel_address_taken), with either event store. Deleting the channel deletes
// the row. It is primary data, not a read model: a rebuild does not touch it,
// and the channels read model gets no unique index, which could refuse a
// rebuild that folds a deletion and a reuse of the address in another workspace
// into one statement, and in EventStoreDB mode would refuse only the projection
// of an event already appended.
// Channels made before: each address is claimed by its oldest channel (the one
// the SMTP receiver already delivered to); a younger channel at the same
// address, made by the race this closes, keeps receiving nothing.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE channel_addresses (
      tenant_id uuid NOT NULL,
      channel_id uuid NOT NULL,
      address text NOT NULL,
      PRIMARY KEY (tenant_id, channel_id)
    );
    CREATE UNIQUE INDEX channel_addresses_address ON channel_addresses (lower(address));
    INSERT INTO channel_addresses (tenant_id, channel_id, address)
      SELECT DISTINCT ON (lower(address)) tenant_id, id, lower(address) FROM channels
       WHERE kind = 'email' AND address IS NOT NULL
       ORDER BY lower(address), created_at, id;
  `);
  await tenantWall(knex, 'channel_addresses');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS channel_addresses');
}
