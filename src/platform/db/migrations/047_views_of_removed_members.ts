import type { Knex } from 'knex';

// The views projector now deletes a member's private views when the member is
// removed (or erased). Members removed before it kept theirs: delete them once
// here, so the live read model is what a rebuild of the log gives.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    DELETE FROM views v
     USING members m
     WHERE m.tenant_id = v.tenant_id AND m.id = v.owner_member_id
       AND m.status = 'removed' AND v.visibility = 'private';
  `);
}

export async function down(): Promise<void> {
  // Nothing to restore: the views were a removed member's, whom nobody can act as any more.
}
