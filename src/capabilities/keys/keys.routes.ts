import { commandContext } from '../../api/command-context.js';
import { listRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import { SCOPES, type Scope } from '../../api/scopes.js';
import type { CoreDeps } from '../capability.js';
import { createKey, revokeKey, rotateKey } from './keys.commands.js';
import { apiKeySchema, apiKeyWithSecretSchema, findKey, keyList, keysOf, renderKey, type KeyRow } from './keys.read.js';

export function keysRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock } = deps;
  const reload = async (tenantId: string, id: string) => renderKey((await findKey(db, tenantId, id))!);
  return [
    route<{ name: string; scopes: Scope[] }>({
      method: 'post',
      path: '/keys',
      permission: 'api_keys:create',
      freshSession: true,
      summary: 'Mint an API key',
      responses: { 201: apiKeyWithSecretSchema },
      body: {
        additionalProperties: false,
        required: ['name', 'scopes'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 200 },
          scopes: { type: 'array', minItems: 1, maxItems: SCOPES.length, items: { type: 'string', enum: [...SCOPES] } },
        },
      },
      async handle(call) {
        const { principal: p, body } = call;
        const { spec, secret } = createKey({ keyId: call.write.ids.uuid(), tenantId: p.tenantId, memberId: p.memberId, role: p.role, name: body.name, scopes: body.scopes });
        const [created] = await shell.execute(commandContext(call, clock), spec);
        // The only answers that ever carry a key's secret: this one and rotation.
        return { status: 201, body: { ...(await reload(p.tenantId, created!.aggregate_id)), secret } };
      },
    }),

    listRoute<KeyRow>({
      path: '/keys',
      permission: 'authenticated',
      summary: 'List API keys (yours; every key with api_keys:revoke_any)',
      item: apiKeySchema,
      spec: keyList,
      query: ({ principal: p }) => {
        const q = keysOf(db, p.tenantId);
        // Members see their own keys; whoever may revoke any key sees them all.
        return p.scopes.includes('api_keys:revoke_any') ? q : q.andWhere({ member_id: p.memberId });
      },
      render: renderKey,
    }),

    route({
      method: 'post',
      path: '/keys/:id/rotate',
      permission: 'api_keys:create',
      freshSession: true,
      summary: 'Rotate one of your API keys (new secret, same scopes)',
      responses: { 200: apiKeyWithSecretSchema },
      async handle(call) {
        const { principal: p, params } = call;
        const { spec, secret } = rotateKey({ tenantId: p.tenantId, keyId: params.id!, memberId: p.memberId });
        await shell.execute(commandContext(call, clock), spec);
        return { status: 200, body: { ...(await reload(p.tenantId, params.id!)), secret } };
      },
    }),

    route({
      method: 'delete',
      path: '/keys/:id',
      permission: 'api_keys:revoke_own',
      summary: 'Revoke an API key',
      responses: { 200: apiKeySchema },
      async handle(call) {
        const { principal: p, params } = call;
        await shell.execute(commandContext(call, clock), revokeKey({ keyId: params.id!, actorMemberId: p.memberId, scopes: p.scopes }));
        return { status: 200, body: await reload(p.tenantId, params.id!) };
      },
    }),
  ];
}
