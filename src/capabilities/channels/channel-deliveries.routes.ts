// The delivery log of a channel's replies (posted to its webhook_url): the same
// records, states and attempt log as a webhook endpoint's.
import { applyKeyset, listQuerySchema, parseCursor, toPage, type ListParams } from '../../api/pagination/list.js';
import { route, type RouteDef } from '../../api/routes.js';
import type { DeliveryRow } from '../../dispatch/deliveries.repo.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { attemptsOf, deliveriesOf, deliveryList, findDelivery, renderAttempt, renderDelivery } from '../webhooks/webhooks.read.js';
import { findChannel } from './channels.read.js';

export function channelDeliveryRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;
  const channelOr404 = async (tenantId: string, id: string) => {
    if (!(await findChannel(db, tenantId, id))) throw new NotFound('channel');
  };
  return [
    route<unknown, ListParams & { state?: string }>({
      method: 'get',
      path: '/channels/:id/deliveries',
      permission: 'settings:read',
      query: listQuerySchema(deliveryList, { state: { type: 'string', enum: ['pending', 'delivered', 'dead'] } }),
      async handle({ principal, params, query }) {
        const cursor = parseCursor(deliveryList, query);
        await channelOr404(principal.tenantId, params.id!);
        const q = deliveriesOf(db, principal.tenantId, params.id!, 'channel');
        if (query.state) q.andWhere({ state: query.state });
        const rows = (await applyKeyset(q, deliveryList, query, cursor)) as DeliveryRow[];
        const key = (r: DeliveryRow) => Number(query.sort === 'seq' ? r.seq : r.ord);
        return { status: 200, body: toPage(deliveryList, query, rows, key, (r) => r.id, renderDelivery) };
      },
    }),
    route({
      method: 'get',
      path: '/channels/:id/deliveries/:delivery_id',
      permission: 'settings:read',
      async handle({ principal, params }) {
        await channelOr404(principal.tenantId, params.id!);
        const d = await findDelivery(db, principal.tenantId, params.id!, params.delivery_id!, 'channel');
        if (!d) throw new NotFound('channel delivery');
        return { status: 200, body: { ...renderDelivery(d), attempt_log: (await attemptsOf(db, principal.tenantId, d.id)).map(renderAttempt) } };
      },
    }),
  ];
}
