// Minting a key for a member without the HTTP session dance: for operators
// (the CLI's `keys create`), who already hold the database. The same command
// as POST /api/keys (createKey), so the same rules hold: scopes within the
// member's role, the secret shown once and only its hash kept.
import type { Knex } from 'knex';
import type { CommandShell } from '../../commands/shell.js';
import type { Scope } from '../../api/scopes.js';
import type { Clock } from '../../platform/clock.js';
import { NotFound } from '../../platform/errors.js';
import type { Ids } from '../../platform/ids.js';
import { activeMemberOfUser } from '../members/index.js';
import { findUserByEmail, normalizeEmail } from '../users/index.js';
import { createKey } from './keys.commands.js';

export interface MintKeyInput {
  workspaceId: string;
  memberEmail: string;
  name: string;
  scopes: Scope[];
}

export async function mintKeyForMember(deps: { db: Knex; shell: CommandShell; clock: Clock; ids: Ids }, input: MintKeyInput) {
  const user = await findUserByEmail(deps.db, normalizeEmail(input.memberEmail));
  const member = user ? await activeMemberOfUser(deps.db, input.workspaceId, user.id) : undefined;
  if (!member) throw new NotFound(`active member with e-mail ${input.memberEmail} in workspace ${input.workspaceId}`, 'member_not_found');
  const { spec, secret } = createKey({
    keyId: deps.ids.uuid(),
    tenantId: member.tenant_id,
    memberId: member.id,
    role: member.role,
    name: input.name,
    scopes: input.scopes,
  });
  const {
    events: [created],
  } = await deps.shell.execute({ tenantId: member.tenant_id, now: deps.clock.now(), actor: { type: 'system', id: 'cli', member_id: member.id } }, spec);
  const payload = created!.payload as { key_id: string; member_id: string; name: string; scopes: string[] };
  return {
    type: 'api_key',
    id: payload.key_id,
    workspace_id: member.tenant_id,
    member_id: payload.member_id,
    role: member.role,
    name: payload.name,
    scopes: payload.scopes,
    secret,
  };
}
