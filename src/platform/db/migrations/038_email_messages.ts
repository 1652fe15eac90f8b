import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// The e-mail channel's tables (src/capabilities/email/).
// `email_messages` is a read model of email.received, email.sent and
// conversation_part.delivery_failed: per part, the message's headers and
// delivery state. Threading and deduplication look up `message_id_hash`
// (SHA-256 of the lower-cased Message-ID), which an erasure leaves; the
// personal columns are cleared by it.
// `email_attachments` is primary data beside the log (rebuild never empties it):
// each attachment's name, type and bytes sealed under the part's data key, so
// destroying that key (redaction, erasure) makes them unreadable, and the
// projector deletes the rows in the erasure's own transaction.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE email_messages (
      tenant_id uuid NOT NULL,
      part_id uuid NOT NULL,
      conversation_id uuid NOT NULL,
      channel_id uuid NOT NULL,
      direction text NOT NULL,
      message_id_hash text,
      threaded_by text,
      message_id text,
      from_address text,
      from_name text,
      recipients jsonb,
      subject text,
      html text,
      quoted text,
      attachments jsonb,
      authentication jsonb,
      suspicious boolean NOT NULL DEFAULT false,
      automated boolean NOT NULL DEFAULT false,
      delivery_status text,
      delivery_code integer,
      delivery_error text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, part_id)
    );
    CREATE INDEX email_messages_message_id ON email_messages (tenant_id, channel_id, message_id_hash);
    CREATE INDEX email_messages_conversation ON email_messages (tenant_id, conversation_id, created_at);
    CREATE TABLE email_attachments (
      tenant_id uuid NOT NULL,
      part_id uuid NOT NULL,
      index integer NOT NULL,
      conversation_id uuid NOT NULL,
      size integer NOT NULL,
      sealed text NOT NULL,
      PRIMARY KEY (tenant_id, part_id, index)
    );
    CREATE INDEX email_attachments_conversation ON email_attachments (tenant_id, conversation_id);
  `);
  await tenantWall(knex, 'email_messages');
  await tenantWall(knex, 'email_attachments');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS email_attachments; DROP TABLE IF EXISTS email_messages');
}
