import type { Knex } from 'knex';

// Checkpoints that chain (issue 44, docs/audit.md): a version-2 checkpoint signs
// `prev_checkpoint`, the hash of the canonical form of the checkpoint the service
// issued before it in the same workspace, so a deleted or replaced checkpoint
// breaks the sequence. Rows written before stay version 1 (no predecessor) and
// keep verifying as they were signed.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE audit_checkpoints
      ADD COLUMN IF NOT EXISTS version smallint NOT NULL DEFAULT 1,
      ADD COLUMN IF NOT EXISTS prev_checkpoint text;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE audit_checkpoints DROP COLUMN IF EXISTS prev_checkpoint, DROP COLUMN IF EXISTS version;`);
}
