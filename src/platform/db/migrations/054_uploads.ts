import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Uploaded files (src/capabilities/uploads/).
// `uploads` is a read model of upload.* events and of the parts that attach
// them (conversation_part.created's upload_ids): what each upload is, when it
// expires, and the part it went to. It holds nothing personal.
// `upload_contents` is primary data beside the log (rebuild never empties it):
// each upload's name and bytes, sealed under the upload's own data key
// (data_keys, subject upload:<id>). Attaching it makes the part's key its
// owner, so the part's redaction and the contact's erasure destroy it; the
// projector deletes the rows in that transaction, and an expiry deletes them
// with its event.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE uploads (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      content_type text NOT NULL,
      size bigint NOT NULL,
      created_by_type text NOT NULL,
      created_by_id text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      conversation_id uuid,
      part_id uuid,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX uploads_unattached ON uploads (expires_at) WHERE part_id IS NULL;
    CREATE INDEX uploads_of_conversation ON uploads (tenant_id, conversation_id) WHERE conversation_id IS NOT NULL;
    CREATE TABLE upload_contents (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      conversation_id uuid,
      part_id uuid,
      sealed_name text NOT NULL,
      sealed bytea NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    -- Sealed bytes do not compress: stored out of line without trying to (TOAST's EXTERNAL).
    ALTER TABLE upload_contents ALTER COLUMN sealed SET STORAGE EXTERNAL;
    CREATE INDEX upload_contents_of_conversation ON upload_contents (tenant_id, conversation_id) WHERE conversation_id IS NOT NULL;
    CREATE INDEX upload_contents_of_part ON upload_contents (tenant_id, part_id) WHERE part_id IS NOT NULL;
  `);
  await tenantWall(knex, 'uploads');
  await tenantWall(knex, 'upload_contents');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS upload_contents; DROP TABLE IF EXISTS uploads');
}
