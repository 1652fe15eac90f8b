import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import type { Call, RouteDef } from '../../api/routes.js';
import type { Db } from '../../platform/db/database.js';
import { BadRequest } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { createEndpoint, deleteEndpoint, updateEndpoint } from './webhooks.commands.js';
import {
  deletedEndpointSchema,
  endpointList,
  endpointSchema,
  endpointsOf,
  endpointWithSecretSchema,
  findEndpoint,
  renderEndpoint,
  type DeletedWebhookEndpoint,
  type EndpointRow,
} from './webhooks.read.js';

const url = Type.String({ minLength: 1, maxLength: 2048 });
const description = Type.String({ maxLength: 1000 });

export function webhooksRoutes(deps: CoreDeps): RouteDef[] {
  const { db, sealer, urlPolicy: policy, catalogue } = deps;
  // A filter may name only events the service emits (docs/events.md): a typo would otherwise match nothing, silently.
  const eventNames = Type.Array(Type.Unsafe<string>({ type: 'string', enum: catalogue.types() }), { maxItems: 100 });
  const NewEndpoint = Type.Object(
    { url, event_names: eventNames, description: Type.Optional(description), enabled: Type.Optional(Type.Boolean()) },
    { additionalProperties: false },
  );
  const EndpointUpdate = Type.Object(
    {
      url: Type.Optional(url),
      event_names: Type.Optional(eventNames),
      description: Type.Optional(description),
      enabled: Type.Optional(Type.Boolean()),
      // Named so that sending it is refused with secret_immutable rather than as an unknown field.
      secret: Type.Optional(Type.Unknown()),
    },
    { additionalProperties: false, minProperties: 1 },
  );
  const endpointIn = async (tx: Db, call: Call, id: string) => renderEndpoint((await findEndpoint(tx, call.principal.tenantId, id))!);

  return [
    commandRoute(deps, {
      method: 'post',
      path: '/webhooks',
      permission: 'settings:write',
      summary: 'Register a webhook endpoint',
      body: NewEndpoint,
      command: ({ body, write }) => {
        const { spec, secret } = createEndpoint(
          { endpointId: write.ids.uuid(), url: body.url, eventNames: body.event_names, description: body.description ?? '', enabled: body.enabled ?? true },
          sealer,
        );
        // The only answer that ever carries the endpoint's secret (spec 2.2).
        return { spec, extra: { secret } };
      },
      answer: { status: 201, schema: endpointWithSecretSchema, read: (tx, [created], call) => endpointIn(tx, call, created!.aggregate_id) },
      before: ({ body }) => policy.requireAllowed(body.url, 'url'),
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

    getRoute({
      path: '/webhooks/:id',
      permission: 'settings:read',
      summary: 'Get a webhook endpoint',
      resource: endpointSchema,
      what: 'webhook endpoint',
      find: ({ principal, params }) => findEndpoint(db, principal.tenantId, params.id),
      render: renderEndpoint,
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/webhooks/:id',
      permission: 'settings:write',
      summary: 'Change a webhook endpoint',
      body: EndpointUpdate,
      command: ({ params, body }) => updateEndpoint({ endpointId: params.id, changes: body }),
      answer: { status: 200, schema: endpointSchema, read: (tx, _events, call) => endpointIn(tx, call, call.params.id) },
      before: async ({ body }) => {
        if ('secret' in body)
          throw new BadRequest('secret_immutable', 'The signing secret cannot be changed; create a new endpoint for a new secret.', 'secret');
        if (body.url !== undefined) await policy.requireAllowed(body.url, 'url');
      },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/webhooks/:id',
      permission: 'settings:write',
      summary: 'Delete a webhook endpoint and its delivery log',
      command: ({ params }) => deleteEndpoint({ endpointId: params.id }, sealer),
      answer: {
        status: 200,
        schema: deletedEndpointSchema,
        read: async (_tx, _events, call): Promise<DeletedWebhookEndpoint> => ({ type: 'webhook_endpoint', id: call.params.id, deleted: true }),
      },
    }),
  ];
}
