// Creating a workspace with its owner: used by the CLI bootstrap. Password
// work happens before the command so the tenant lock is never held through scrypt.
import type { CommandShell } from '../../commands/shell.js';
import type { Clock } from '../../platform/clock.js';
import { Unauthorized } from '../../platform/errors.js';
import type { Ids } from '../../platform/ids.js';
import type { Knex } from 'knex';
import { hashPassword, verifyPassword } from '../access/passwords.js';
import { findUserByEmail, insertUser, normalizeEmail } from '../access/users.repo.js';
import { decideCreateWorkspace } from './workspaces.decider.js';

export interface CreateWorkspaceInput {
  name: string;
  ownerEmail: string;
  ownerPassword: string;
  ownerName?: string;
}

export async function createWorkspace(deps: { db: Knex; shell: CommandShell; clock: Clock; ids: Ids }, input: CreateWorkspaceInput) {
  const email = normalizeEmail(input.ownerEmail);
  const existing = await findUserByEmail(deps.db, email);
  // An existing user may own several workspaces, but only by proving it is them.
  if (existing && !(await verifyPassword(input.ownerPassword, existing.password_hash))) {
    throw new Unauthorized('invalid_credentials', 'A user with this e-mail exists and the password does not match.');
  }
  const passwordHash = existing ? null : await hashPassword(input.ownerPassword);
  const workspaceId = deps.ids.uuid();
  const owner = { memberId: deps.ids.uuid(), userId: existing?.id ?? deps.ids.uuid(), email, name: input.ownerName ?? existing?.name ?? email.split('@')[0]! };
  const now = deps.clock.now();
  await deps.shell.execute(
    { tenantId: workspaceId, now, actor: { type: 'system', id: 'cli' } },
    {
      name: 'CreateWorkspace',
      load: async (db) => ({ exists: !!(await db('workspaces').where({ id: workspaceId }).first('id')) }),
      decide: (state) => decideCreateWorkspace({ workspaceId, name: input.name, owner }, state),
      beside: async (db) => {
        if (passwordHash) await insertUser(db, { id: owner.userId, email, name: owner.name, password_hash: passwordHash, created_at: now });
      },
    },
  );
  return { workspace_id: workspaceId, member_id: owner.memberId, user_id: owner.userId, name: input.name, owner_email: email };
}
