import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Signed checkpoints of the hash chain (docs/audit.md), beside the log.
//
// audit_checkpoints: every checkpoint the service issued (GET /api/audit/checkpoint,
// the export's last line, the scheduled ones): a workspace's seq and chain hash,
// signed with Ed25519 by the key `kid`. `audit verify` checks each against the log.
//
// audit_signing_keys: the public half of every key that ever signed, as a JWK by
// kid (RFC 7638 thumbprint), so checkpoints signed before a rotation still verify
// (GET /api/audit/keys). Not a tenant table: the keys are the service's.
//
// events_by_aggregate: the events of one aggregate in seq order, for a past state
// (?as_of_seq=) and an aggregate's history, without a scan of its workspace.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE IF NOT EXISTS audit_checkpoints (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      seq bigint NOT NULL,
      hash text NOT NULL,
      signed_at timestamptz NOT NULL,
      kid text NOT NULL,
      signature text NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX IF NOT EXISTS audit_checkpoints_by_time ON audit_checkpoints (tenant_id, signed_at, id);
    CREATE INDEX IF NOT EXISTS audit_checkpoints_by_seq ON audit_checkpoints (tenant_id, seq);

    CREATE TABLE IF NOT EXISTS audit_signing_keys (
      kid text PRIMARY KEY,
      jwk jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE INDEX IF NOT EXISTS events_by_aggregate ON events (tenant_id, aggregate_id, seq);
  `);
  await tenantWall(knex, 'audit_checkpoints');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX IF EXISTS events_by_aggregate;
    DROP TABLE IF EXISTS audit_signing_keys;
    DROP TABLE IF EXISTS audit_checkpoints;
  `);
}
