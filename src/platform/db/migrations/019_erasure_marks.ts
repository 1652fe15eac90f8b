import type { Knex } from 'knex';

// What erasure needs to find and show: which invite a member joined through
// (its key goes with the member's), and whether a conversation's contact was
// erased (conversations then show `contact: null`, without a join on reads).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE members ADD COLUMN invite_id uuid;
    ALTER TABLE conversations ADD COLUMN contact_erased boolean NOT NULL DEFAULT false;

    -- Erasing a removed member deletes their sign-in account when they are an active member of
    -- no workspace. Requests run behind row-level security and cannot see other workspaces'
    -- memberships; this function runs as its owner (the migrating role) to answer that one question.
    CREATE FUNCTION forget_user_if_unattached(p_user uuid) RETURNS boolean
    LANGUAGE sql SECURITY DEFINER SET search_path = public AS $$
      WITH gone AS (
        DELETE FROM users WHERE id = p_user
          AND NOT EXISTS (SELECT 1 FROM members WHERE user_id = p_user AND status = 'active')
        RETURNING id)
      SELECT EXISTS (SELECT 1 FROM gone)
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE members DROP COLUMN IF EXISTS invite_id;
    ALTER TABLE conversations DROP COLUMN IF EXISTS contact_erased;
    DROP FUNCTION IF EXISTS forget_user_if_unattached(uuid);
  `);
}
