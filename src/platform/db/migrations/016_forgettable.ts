import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Personal data the log can forget (crypto-shredding; see src/eventstore/forgettable.ts).
// `data_keys` holds one data key per subject (a contact, a conversation, a part,
// a member, an invite), wrapped by the service's key. It lives beside the log on
// purpose: deleting a row here is what forgets every sealed copy (events, feed,
// delivery records, stored answers, exports) without touching the gapless log.
// Read models that hold personal fields accept null, which is what an erased
// subject's events open to on a rebuild.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE data_keys (
      tenant_id uuid NOT NULL,
      subject text NOT NULL,
      owner text,
      wrapped text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, subject)
    );
    CREATE INDEX data_keys_owner ON data_keys (tenant_id, owner) WHERE owner IS NOT NULL;

    ALTER TABLE members ALTER COLUMN email DROP NOT NULL, ALTER COLUMN name DROP NOT NULL;
    ALTER TABLE invites ALTER COLUMN email DROP NOT NULL;
    ALTER TABLE members ADD COLUMN erased_at timestamptz;

    ALTER TABLE conversation_parts ADD COLUMN redacted text;
    ALTER TABLE contacts
      ADD COLUMN custom_attributes jsonb,
      ADD COLUMN archived_at timestamptz,
      ADD COLUMN erased_at timestamptz;
  `);
  await tenantWall(knex, 'data_keys');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS data_keys;
    ALTER TABLE members DROP COLUMN IF EXISTS erased_at;
    ALTER TABLE conversation_parts DROP COLUMN IF EXISTS redacted;
    ALTER TABLE contacts DROP COLUMN IF EXISTS custom_attributes, DROP COLUMN IF EXISTS archived_at, DROP COLUMN IF EXISTS erased_at;
  `);
}
