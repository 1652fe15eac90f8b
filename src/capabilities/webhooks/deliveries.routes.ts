// The delivery log of an endpoint (spec 2.3) and republishing (spec 6.1.2).
import { route, type RouteDef } from '../../api/routes.js';
import { republish } from '../../dispatch/deliveries.repo.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { deliveryLogRoutes } from './delivery-log.routes.js';
import { findDelivery, findEndpoint, renderDelivery } from './webhooks.read.js';

export function deliveryRoutes(deps: CoreDeps): RouteDef[] {
  const { db, clock, ids } = deps;
  const endpointOr404 = async (tenantId: string, id: string) => {
    const e = await findEndpoint(db, tenantId, id);
    if (!e) throw new NotFound('webhook endpoint');
    return e;
  };

  return [
    ...deliveryLogRoutes(deps, { base: '/webhooks', kind: 'endpoint', mustExist: endpointOr404, what: 'webhook' }),

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
