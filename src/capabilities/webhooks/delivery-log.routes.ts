// The delivery log (spec 2.3) for any delivery target: a webhook endpoint, or a
// channel whose replies go to its webhook_url. Same records, states and attempts.
import { applyKeyset, listQuerySchema, parseCursor, toPage, type ListParams } from '../../api/pagination/list.js';
import { route, type RouteDef } from '../../api/routes.js';
import type { DeliveryRow } from '../../dispatch/deliveries.repo.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { attemptsOf, deliveriesOf, deliveryList, findDelivery, renderAttempt, renderDelivery } from './webhooks.read.js';

export interface DeliveryTarget {
  /** route prefix, e.g. '/webhooks' or '/channels' */
  base: string;
  kind: 'endpoint' | 'channel';
  /** throws NotFound when the target is not the caller workspace's */
  mustExist(tenantId: string, id: string): Promise<unknown>;
  what: string;
}

export function deliveryLogRoutes(deps: CoreDeps, target: DeliveryTarget): RouteDef[] {
  const { db } = deps;
  return [
    route<unknown, ListParams & { state?: string }>({
      method: 'get',
      path: `${target.base}/:id/deliveries`,
      permission: 'settings:read',
      query: listQuerySchema(deliveryList, { state: { type: 'string', enum: ['pending', 'delivered', 'dead'] } }),
      async handle({ principal, params, query }) {
        const cursor = parseCursor(deliveryList, query);
        await target.mustExist(principal.tenantId, params.id!);
        const q = deliveriesOf(db, principal.tenantId, params.id!, target.kind);
        if (query.state) q.andWhere({ state: query.state });
        const rows = (await applyKeyset(q, deliveryList, query, cursor)) as DeliveryRow[];
        const key = (r: DeliveryRow) => Number(query.sort === 'seq' ? r.seq : r.ord);
        return { status: 200, body: toPage(deliveryList, query, rows, key, (r) => r.id, renderDelivery) };
      },
    }),

    route({
      method: 'get',
      path: `${target.base}/:id/deliveries/:delivery_id`,
      permission: 'settings:read',
      async handle({ principal, params }) {
        await target.mustExist(principal.tenantId, params.id!);
        const d = await findDelivery(db, principal.tenantId, params.id!, params.delivery_id!, target.kind);
        if (!d) throw new NotFound(`${target.what} delivery`);
        return { status: 200, body: { ...renderDelivery(d), attempt_log: (await attemptsOf(db, principal.tenantId, d.id)).map(renderAttempt) } };
      },
    }),
  ];
}
