import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// E-mail channels (issue 32). `channels.address` is the support address of a
// channel of kind `email`, unique in the instance: the SMTP receiver finds the
// channel (and so the workspace) by it, as the owner role, through the index on
// lower(address). The index is not unique because channels is a read model: the
// creating route checks the address across workspaces before the command.
// `channel_dkim_keys` is beside the log: a channel's DKIM selector and private
// key, the key sealed like the channel's secrets, never in an event or answer.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE channels ADD COLUMN address text;
    ALTER TABLE channels ADD COLUMN dkim_selector text;
    CREATE INDEX channels_address ON channels (lower(address)) WHERE address IS NOT NULL;
    CREATE TABLE channel_dkim_keys (
      tenant_id uuid NOT NULL,
      channel_id uuid NOT NULL,
      selector text NOT NULL,
      sealed text NOT NULL,
      PRIMARY KEY (tenant_id, channel_id)
    );
  `);
  await tenantWall(knex, 'channel_dkim_keys');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS channel_dkim_keys;
    DROP INDEX IF EXISTS channels_address;
    ALTER TABLE channels DROP COLUMN IF EXISTS dkim_selector;
    ALTER TABLE channels DROP COLUMN IF EXISTS address;
  `);
}
