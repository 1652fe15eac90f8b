import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// The audit log (src/capabilities/audit-log/). Every event is an entry of it, read from the log itself
// (its metadata: actor, request id, and the caller's address and user agent, sealed); what is not an event
// is kept here, beside the log:
//   audit_entries        sign-ins, failed sign-ins, sign-outs, throttled sign-ins, device revocations,
//                        export downloads, keys used from a new address. `client` holds the address and
//                        user agent as sealed tokens (a member's or a contact's data key), so an erasure
//                        reads them as null. Deleted after AUDIT_RETENTION_DAYS; events never are.
//   audit_key_addresses  which addresses each API key was used from (a keyed MAC of the address, never the
//                        address), so that the first use from a new one is recorded once. Deleted with the
//                        member's erasure and after the retention.
//   audit_log_events     the log's metadata when the log is EventStoreDB (a read model, like feed_events);
//                        empty with the Postgres store, where the audit log reads `events`.
// users.devices_revoked_at: device cookies (access/device-cookies.ts) issued at or before it give no
// advantage at sign-in (DELETE /api/me/devices, DELETE /api/members/{id}/devices).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE users ADD COLUMN IF NOT EXISTS devices_revoked_at timestamptz;

    CREATE TABLE audit_entries (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      action text NOT NULL,
      aggregate_type text,
      aggregate_id text,
      actor_type text NOT NULL,
      actor_id text NOT NULL,
      actor_member_id uuid,
      client jsonb,
      request_id text,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX audit_entries_by_time ON audit_entries (tenant_id, created_at, id);
    CREATE INDEX audit_entries_retention ON audit_entries (created_at);

    CREATE TABLE audit_key_addresses (
      tenant_id uuid NOT NULL,
      key_id uuid NOT NULL,
      address_mac text NOT NULL,
      member_id uuid NOT NULL,
      first_seen_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, key_id, address_mac)
    );
    CREATE INDEX audit_key_addresses_member ON audit_key_addresses (tenant_id, member_id);
    CREATE INDEX audit_key_addresses_retention ON audit_key_addresses (first_seen_at);

    CREATE TABLE audit_log_events (
      tenant_id uuid NOT NULL,
      seq bigint NOT NULL,
      id uuid NOT NULL,
      type text NOT NULL,
      aggregate_type text NOT NULL,
      aggregate_id text NOT NULL,
      metadata jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, seq)
    );
  `);
  await tenantWall(knex, 'audit_entries');
  await tenantWall(knex, 'audit_key_addresses');
  await tenantWall(knex, 'audit_log_events');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS audit_log_events;
    DROP TABLE IF EXISTS audit_key_addresses;
    DROP TABLE IF EXISTS audit_entries;
    ALTER TABLE users DROP COLUMN IF EXISTS devices_revoked_at;
  `);
}
