import { commandContext } from '../../api/command-context.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import { BadRequest } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { createEndpoint, deleteEndpoint, updateEndpoint } from './webhooks.commands.js';
import type { EndpointChanges } from './webhooks.decider.js';
import { deletedEndpointSchema, endpointList, endpointSchema, endpointsOf, endpointWithSecretSchema, findEndpoint, renderEndpoint, type EndpointRow } from './webhooks.read.js';

const url = { type: 'string', minLength: 1, maxLength: 2048 };
const description = { type: 'string', maxLength: 1000 };

export function webhooksRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock, sealer, urlPolicy: policy, catalogue } = deps;
  // A filter may name only events the service emits (docs/events.md): a typo would otherwise match nothing, silently.
  const eventNames = { type: 'array', maxItems: 100, items: { type: 'string', enum: catalogue.types() } };
  const reload = async (tenantId: string, id: string) => renderEndpoint((await findEndpoint(db, tenantId, id))!);

  return [
    route<{ url: string; event_names: string[]; description?: string; enabled?: boolean }>({
      method: 'post',
      path: '/webhooks',
      permission: 'settings:write',
      summary: 'Register a webhook endpoint',
      responses: { 201: endpointWithSecretSchema },
      body: {
        additionalProperties: false,
        required: ['url', 'event_names'],
        properties: { url, event_names: eventNames, description, enabled: { type: 'boolean' } },
      },
      async handle(call) {
        const { principal, body } = call;
        await policy.requireAllowed(body.url, 'url');
        const { spec, secret } = createEndpoint(
          { endpointId: call.write.ids.uuid(), url: body.url, eventNames: body.event_names, description: body.description ?? '', enabled: body.enabled ?? true },
          sealer,
        );
        const [created] = await shell.execute(commandContext(call, clock), spec);
        // The only answer that ever carries the endpoint's secret (spec 2.2).
        return { status: 201, body: { ...(await reload(principal.tenantId, created!.aggregate_id)), secret } };
      },
    }),

    listRoute<EndpointRow>({
      path: '/webhooks',
      permission: 'settings:read',
      summary: 'List webhook endpoints',
      item: endpointSchema,
      spec: endpointList,
      query: ({ principal }) => endpointsOf(db, principal.tenantId),
      render: renderEndpoint,
    }),

    getRoute<EndpointRow>({
      path: '/webhooks/:id',
      permission: 'settings:read',
      summary: 'Get a webhook endpoint',
      resource: endpointSchema,
      what: 'webhook endpoint',
      find: ({ principal, params }) => findEndpoint(db, principal.tenantId, params.id!),
      render: renderEndpoint,
    }),

    route<EndpointChanges & { secret?: unknown }>({
      method: 'put',
      path: '/webhooks/:id',
      permission: 'settings:write',
      summary: 'Change a webhook endpoint',
      responses: { 200: endpointSchema },
      body: {
        additionalProperties: false,
        minProperties: 1,
        properties: { url, event_names: eventNames, description, enabled: { type: 'boolean' }, secret: {} },
      },
      async handle(call) {
        const { principal, params, body } = call;
        if ('secret' in body) throw new BadRequest('secret_immutable', 'The signing secret cannot be changed; create a new endpoint for a new secret.', 'secret');
        if (body.url !== undefined) await policy.requireAllowed(body.url, 'url');
        await shell.execute(commandContext(call, clock), updateEndpoint({ endpointId: params.id!, changes: body }));
        return { status: 200, body: await reload(principal.tenantId, params.id!) };
      },
    }),

    route({
      method: 'delete',
      path: '/webhooks/:id',
      permission: 'settings:write',
      summary: 'Delete a webhook endpoint and its delivery log',
      responses: { 200: deletedEndpointSchema },
      async handle(call) {
        const { params } = call;
        await shell.execute(commandContext(call, clock), deleteEndpoint({ endpointId: params.id! }, sealer));
        return { status: 200, body: { type: 'webhook_endpoint', id: params.id!, deleted: true } };
      },
    }),
  ];
}
