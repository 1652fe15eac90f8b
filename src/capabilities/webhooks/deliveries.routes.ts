// The delivery log of an endpoint (spec 2.3) and republishing (spec 6.1.2).
import { applyKeyset, listQuerySchema, parseCursor, toPage, type ListParams } from '../../api/pagination/list.js';
import { route, type RouteDef } from '../../api/routes.js';
import { republish, type DeliveryRow } from '../../dispatch/deliveries.repo.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { attemptsOf, deliveriesOf, deliveryList, findDelivery, findEndpoint, renderAttempt, renderDelivery } from './webhooks.read.js';

export function deliveryRoutes(deps: CoreDeps): RouteDef[] {
  const { db, clock, ids } = deps;
  const endpointOr404 = async (tenantId: string, id: string) => {
    const e = await findEndpoint(db, tenantId, id);
    if (!e) throw new NotFound('webhook endpoint');
    return e;
  };

  return [
    route<unknown, ListParams & { state?: string }>({
      method: 'get',
      path: '/webhooks/:id/deliveries',
      permission: 'settings:read',
      query: listQuerySchema(deliveryList, { state: { type: 'string', enum: ['pending', 'delivered', 'dead'] } }),
      async handle({ principal, params, query }) {
        const cursor = parseCursor(deliveryList, query);
        await endpointOr404(principal.tenantId, params.id!);
        const q = deliveriesOf(db, principal.tenantId, params.id!);
        if (query.state) q.andWhere({ state: query.state });
        const rows = (await applyKeyset(q, deliveryList, query, cursor)) as DeliveryRow[];
        const key = (r: DeliveryRow) => Number(query.sort === 'seq' ? r.seq : r.ord);
        return { status: 200, body: toPage(deliveryList, query, rows, key, (r) => r.id, renderDelivery) };
      },
    }),

    route({
      method: 'get',
      path: '/webhooks/:id/deliveries/:delivery_id',
      permission: 'settings:read',
      async handle({ principal, params }) {
        await endpointOr404(principal.tenantId, params.id!);
        const d = await findDelivery(db, principal.tenantId, params.id!, params.delivery_id!);
        if (!d) throw new NotFound('webhook delivery');
        const attempts = await attemptsOf(db, principal.tenantId, d.id);
        return { status: 200, body: { ...renderDelivery(d), attempt_log: attempts.map(renderAttempt) } };
      },
    }),

    route({
      method: 'post',
      path: '/webhooks/:id/deliveries/:delivery_id/retry',
      permission: 'settings:write',
      async handle({ principal, params }) {
        const endpoint = await endpointOr404(principal.tenantId, params.id!);
        const source = await findDelivery(db, principal.tenantId, params.id!, params.delivery_id!);
        if (!source) throw new NotFound('webhook delivery');
        // Same seq, same bytes, a new record; addressed to the endpoint's URL as it is now.
        const copy = await republish(db, source, endpoint.url, clock.now(), ids.uuid());
        return { status: 201, body: renderDelivery(copy) };
      },
    }),
  ];
}
