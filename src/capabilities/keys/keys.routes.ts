import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { listRoute } from '../../api/resource-routes.js';
import type { RouteDef } from '../../api/routes.js';
import { SCOPES, type Scope } from '../../api/scopes.js';
import type { CoreDeps } from '../capability.js';
import { createKey, revokeKey, rotateKey } from './keys.commands.js';
import { apiKeySchema, apiKeyWithSecretSchema, findKey, keyList, keysOf, renderKey, type KeyRow } from './keys.read.js';

const NewKey = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    scopes: Type.Array(Type.Unsafe<Scope>({ type: 'string', enum: [...SCOPES] }), { minItems: 1, maxItems: SCOPES.length }),
  },
  { additionalProperties: false },
);

export function keysRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;
  return [
    commandRoute(deps, {
      method: 'post',
      path: '/keys',
      permission: 'api_keys:create',
      freshSession: true,
      summary: 'Mint an API key',
      body: NewKey,
      command: ({ principal: p, body, write }) => {
        const { spec, secret } = createKey({
          keyId: write.ids.uuid(),
          tenantId: p.tenantId,
          memberId: p.memberId,
          role: p.role,
          name: body.name,
          scopes: body.scopes,
        });
        // The only answers that ever carry a key's secret: this one and rotation.
        return { spec, extra: { secret } };
      },
      answer: {
        status: 201,
        schema: apiKeyWithSecretSchema,
        read: async (tx, [created], call) => renderKey((await findKey(tx, call.principal.tenantId, created!.aggregate_id))!),
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

    commandRoute(deps, {
      method: 'post',
      path: '/keys/:id/rotate',
      permission: 'api_keys:create',
      freshSession: true,
      summary: 'Rotate one of your API keys (new secret, same scopes)',
      command: ({ principal: p, params }) => {
        const { spec, secret } = rotateKey({ tenantId: p.tenantId, keyId: params.id, memberId: p.memberId });
        return { spec, extra: { secret } };
      },
      answer: {
        status: 200,
        schema: apiKeyWithSecretSchema,
        read: async (tx, _events, call) => renderKey((await findKey(tx, call.principal.tenantId, call.params.id))!),
      },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/keys/:id',
      permission: 'api_keys:revoke_own',
      summary: 'Revoke an API key',
      command: ({ principal: p, params }) => revokeKey({ keyId: params.id, actorMemberId: p.memberId, scopes: p.scopes }),
      answer: {
        status: 200,
        schema: apiKeySchema,
        read: async (tx, _events, call) => renderKey((await findKey(tx, call.principal.tenantId, call.params.id))!),
      },
    }),
  ];
}
