import { commandContext } from '../../api/command-context.js';
import { applyKeyset, isoKey, listQuerySchema, parseCursor, toPage, type ListParams } from '../../api/pagination/list.js';
import { route, type RouteDef } from '../../api/routes.js';
import type { UrlPolicy } from '../../dispatch/url-policy.js';
import { BadRequest, NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { decideCreateEndpoint, decideDeleteEndpoint, decideUpdateEndpoint, type EndpointChanges } from './webhooks.decider.js';
import { endpointList, endpointView, findEndpoint, renderEndpoint, type EndpointRow } from './webhooks.read.js';
import { forgetEndpoint, mintEndpointSecret, storeEndpointSecret } from './endpoint-secret.js';

const url = { type: 'string', minLength: 1, maxLength: 2048 };
const eventNames = { type: 'array', maxItems: 100, items: { type: 'string', pattern: '^[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+$', maxLength: 100 } };
const description = { type: 'string', maxLength: 1000 };

export function webhookRoutes(deps: CoreDeps, policy: UrlPolicy): RouteDef[] {
  const { db, shell, clock, ids, sealer } = deps;
  const reload = async (tenantId: string, id: string) => renderEndpoint((await findEndpoint(db, tenantId, id))!);

  return [
    route<{ url: string; event_names: string[]; description?: string; enabled?: boolean }>({
      method: 'post',
      path: '/webhooks',
      permission: 'settings:write',
      body: {
        additionalProperties: false,
        required: ['url', 'event_names'],
        properties: { url, event_names: eventNames, description, enabled: { type: 'boolean' } },
      },
      async handle(call) {
        const { principal, body } = call;
        await policy.requireAllowed(body.url, 'url');
        const ctx = commandContext(call, clock);
        const endpointId = ids.uuid();
        const secret = mintEndpointSecret();
        await shell.execute(ctx, {
          name: 'CreateWebhookEndpoint',
          load: async () => null,
          decide: () =>
            decideCreateEndpoint({ endpointId, url: body.url, eventNames: body.event_names, description: body.description ?? '', enabled: body.enabled ?? true }),
          beside: (tx) => storeEndpointSecret(tx, sealer, { tenantId: principal.tenantId, endpointId, secret, now: ctx.now }),
        });
        // The only answer that ever carries the endpoint's secret (spec 2.2).
        return { status: 201, body: { ...(await reload(principal.tenantId, endpointId)), secret } };
      },
    }),

    route<unknown, ListParams>({
      method: 'get',
      path: '/webhooks',
      permission: 'settings:read',
      query: listQuerySchema(endpointList),
      async handle({ principal, query }) {
        const cursor = parseCursor(endpointList, query);
        const rows = (await applyKeyset(db('webhook_endpoints').where({ tenant_id: principal.tenantId }), endpointList, query, cursor)) as EndpointRow[];
        return { status: 200, body: toPage(endpointList, query, rows, (r) => isoKey(r.created_at), (r) => r.id, renderEndpoint) };
      },
    }),

    route({
      method: 'get',
      path: '/webhooks/:id',
      permission: 'settings:read',
      async handle({ principal, params }) {
        const e = await findEndpoint(db, principal.tenantId, params.id!);
        if (!e) throw new NotFound('webhook endpoint');
        return { status: 200, body: renderEndpoint(e) };
      },
    }),

    route<EndpointChanges & { secret?: unknown }>({
      method: 'put',
      path: '/webhooks/:id',
      permission: 'settings:write',
      body: {
        additionalProperties: false,
        minProperties: 1,
        properties: { url, event_names: eventNames, description, enabled: { type: 'boolean' }, secret: {} },
      },
      async handle(call) {
        const { principal, params, body } = call;
        if ('secret' in body) throw new BadRequest('secret_immutable', 'The signing secret cannot be changed; create a new endpoint for a new secret.', 'secret');
        if (body.url !== undefined) await policy.requireAllowed(body.url, 'url');
        await shell.execute(commandContext(call, clock), {
          name: 'UpdateWebhookEndpoint',
          load: async (tx) => endpointView(await findEndpoint(tx, principal.tenantId, params.id!)),
          decide: (endpoint) => decideUpdateEndpoint({ endpointId: params.id!, changes: body }, endpoint),
        });
        return { status: 200, body: await reload(principal.tenantId, params.id!) };
      },
    }),

    route({
      method: 'delete',
      path: '/webhooks/:id',
      permission: 'settings:write',
      async handle(call) {
        const { principal, params } = call;
        await shell.execute(commandContext(call, clock), {
          name: 'DeleteWebhookEndpoint',
          load: async (tx) => endpointView(await findEndpoint(tx, principal.tenantId, params.id!)),
          decide: (endpoint) => decideDeleteEndpoint({ endpointId: params.id! }, endpoint),
          beside: (tx) => forgetEndpoint(tx, principal.tenantId, params.id!),
        });
        return { status: 200, body: { type: 'webhook_endpoint', id: params.id!, deleted: true } };
      },
    }),
  ];
}
