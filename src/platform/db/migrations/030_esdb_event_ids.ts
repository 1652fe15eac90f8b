import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// EventStoreDB has no index by event id, and its own duplicate check only holds
// for a retry at the same expected revision (see docs/eventstoredb.md). The
// EventStoreDB adapter keeps one here, beside the read models: which seq each
// event id of a tenant's stream has (`esdb_event_ids`), and up to which seq that
// is complete (`esdb_event_id_heads.indexed_seq`: every event at or below it has
// its row). Rows are written by the adapter right after its append and filled
// from the stream (from indexed_seq on) by any lookup, so a crash between an
// append and its rows only delays them. Unused with the Postgres store.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE IF NOT EXISTS esdb_event_ids (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      seq bigint NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE TABLE IF NOT EXISTS esdb_event_id_heads (
      tenant_id uuid PRIMARY KEY,
      indexed_seq bigint NOT NULL
    );
  `);
  await tenantWall(knex, 'esdb_event_ids');
  await tenantWall(knex, 'esdb_event_id_heads');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS esdb_event_id_heads; DROP TABLE IF EXISTS esdb_event_ids;');
}
