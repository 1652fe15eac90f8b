import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Notes on a contact (a read model of contact_note.* events): teammates' words
// about a customer, personal data sealed in the log under the note's data key,
// which the contact's erasure destroys; the rows of an erased contact's notes
// are deleted by the projector. Listed newest first per contact.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE contact_notes (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      contact_id uuid NOT NULL,
      body text,
      author_type text NOT NULL,
      author_id text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX contact_notes_by_contact ON contact_notes (tenant_id, contact_id, created_at DESC, id DESC);
  `);
  await tenantWall(knex, 'contact_notes');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS contact_notes');
}
