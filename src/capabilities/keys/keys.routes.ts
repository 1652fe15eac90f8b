import type { Knex } from 'knex';
import { commandContext } from '../../api/command-context.js';
import { applyKeyset, isoKey, listQuerySchema, parseCursor, toPage, type ListParams, type ListSpec } from '../../api/pagination/list.js';
import { route, type RouteDef } from '../../api/routes.js';
import { isUuid } from '../../platform/ids.js';
import type { CoreDeps } from '../capability.js';
import { SCOPES, type Scope } from '../access/scopes.js';
import { decideCreateKey, decideRevokeKey, decideRotateKey, type KeyView } from './keys.decider.js';
import { mintApiKey } from './key-format.js';

interface KeyRow {
  id: string;
  member_id: string;
  name: string;
  scopes: string[];
  status: 'active' | 'revoked';
  created_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

const keyList: ListSpec = { itemType: 'api_key', sorts: { created_at: { column: 'created_at', kind: 'timestamp' } }, defaultSort: 'created_at', defaultOrder: 'asc' };

export const renderKey = (k: KeyRow) => ({
  type: 'api_key',
  id: k.id,
  name: k.name,
  scopes: k.scopes,
  member_id: k.member_id,
  status: k.status,
  created_at: k.created_at.toISOString(),
  rotated_at: k.rotated_at?.toISOString() ?? null,
  revoked_at: k.revoked_at?.toISOString() ?? null,
});

async function findKey(db: Knex | Knex.Transaction, tenantId: string, id: string): Promise<KeyRow | undefined> {
  return isUuid(id) ? db('api_keys').where({ tenant_id: tenantId, id }).first() : undefined;
}
const view = (k: KeyRow | undefined): KeyView | null => (k ? { id: k.id, memberId: k.member_id, status: k.status } : null);

export function keyRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock, ids } = deps;
  return [
    route<{ name: string; scopes: Scope[] }>({
      method: 'post',
      path: '/keys',
      permission: 'api_keys:create',
      freshSession: true,
      body: {
        additionalProperties: false,
        required: ['name', 'scopes'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 200 },
          scopes: { type: 'array', minItems: 1, maxItems: SCOPES.length, items: { type: 'string', enum: [...SCOPES] } },
        },
      },
      async handle(call) {
        const { principal, body } = call;
        const keyId = ids.uuid();
        const { secret, hash } = mintApiKey(principal.tenantId);
        await shell.execute(commandContext(call, clock), {
          name: 'CreateApiKey',
          load: async () => null,
          decide: () => decideCreateKey({ keyId, memberId: principal.memberId, role: principal.role, name: body.name, scopes: body.scopes }),
          beside: (tx) => tx('api_key_secrets').insert({ key_id: keyId, tenant_id: principal.tenantId, secret_hash: hash }),
        });
        // The only answers that ever carry a key's secret: this one and rotation.
        return { status: 201, body: { ...renderKey((await findKey(db, principal.tenantId, keyId))!), secret } };
      },
    }),

    route<unknown, ListParams>({
      method: 'get',
      path: '/keys',
      permission: 'authenticated',
      query: listQuerySchema(keyList),
      async handle({ principal, query }) {
        const cursor = parseCursor(keyList, query);
        const q = db('api_keys').where({ tenant_id: principal.tenantId });
        // Members see their own keys; whoever may revoke any key sees them all.
        if (!principal.scopes.includes('api_keys:revoke_any')) q.andWhere({ member_id: principal.memberId });
        const rows = (await applyKeyset(q, keyList, query, cursor)) as KeyRow[];
        return { status: 200, body: toPage(keyList, query, rows, (r) => isoKey(r.created_at), (r) => r.id, renderKey) };
      },
    }),

    route({
      method: 'post',
      path: '/keys/:id/rotate',
      permission: 'api_keys:create',
      freshSession: true,
      async handle(call) {
        const { principal, params } = call;
        const { secret, hash } = mintApiKey(principal.tenantId);
        await shell.execute(commandContext(call, clock), {
          name: 'RotateApiKey',
          load: async (tx) => view(await findKey(tx, principal.tenantId, params.id!)),
          decide: (key) => decideRotateKey({ keyId: params.id!, memberId: principal.memberId }, key),
          // Replacing the hash is what kills the old secret, atomically with the event.
          beside: (tx) => tx('api_key_secrets').where({ key_id: params.id!, tenant_id: principal.tenantId }).update({ secret_hash: hash }),
        });
        return { status: 200, body: { ...renderKey((await findKey(db, principal.tenantId, params.id!))!), secret } };
      },
    }),

    route({
      method: 'delete',
      path: '/keys/:id',
      permission: 'api_keys:revoke_own',
      async handle(call) {
        const { principal, params } = call;
        await shell.execute(commandContext(call, clock), {
          name: 'RevokeApiKey',
          load: async (tx) => view(await findKey(tx, principal.tenantId, params.id!)),
          decide: (key) => decideRevokeKey({ keyId: params.id!, actorMemberId: principal.memberId, scopes: principal.scopes }, key),
        });
        return { status: 200, body: renderKey((await findKey(db, principal.tenantId, params.id!))!) };
      },
    }),
  ];
}
