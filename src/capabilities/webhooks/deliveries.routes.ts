// The delivery log (spec 2.3) of every delivery target, a webhook endpoint or a
// channel whose replies go to its webhook_url (same records, states and
// attempts), and republishing (spec 6.1.2).
import { listRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import { republish, type DeliveryRow, type TargetKind } from '../../dispatch/deliveries.repo.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { findChannel } from '../channels/index.js';
import {
  attemptsOf,
  deliveriesOf,
  deliveryList,
  deliverySchema,
  deliveryWithAttemptsSchema,
  findDelivery,
  findEndpoint,
  renderAttempt,
  renderDelivery,
  type WebhookDeliveryWithAttempts,
} from './webhooks.read.js';

export interface DeliveryTarget {
  /** route prefix, e.g. '/webhooks' or '/channels' */
  base: string;
  kind: TargetKind;
  what: string;
  /** throws NotFound when the target is not the caller workspace's */
  mustExist(tenantId: string, id: string): Promise<unknown>;
  /**
   * Where a republished delivery goes (the target's URL as it is now; throws NotFound when the target is gone):
   * given, the log gets the republish route (spec 6.1.2). A channel's replies have none.
   */
  republishTo?(tenantId: string, id: string, source: DeliveryRow): Promise<string>;
}

/**
 * The delivery log's routes under a target's own, and its republish route when the target has one (a capability with
 * targets of its own mounts them: automation's rules).
 */
export function deliveryLogRoutes(deps: CoreDeps, target: DeliveryTarget): RouteDef[] {
  const { db, clock } = deps;
  const republishTo = target.republishTo;
  return [
    listRoute<DeliveryRow, { state?: string }, `${string}/:id/deliveries`>({
      path: `${target.base}/:id/deliveries`,
      permission: 'settings:read',
      summary: `List a ${target.what}'s deliveries (newest first)`,
      item: deliverySchema,
      spec: deliveryList,
      filters: { state: { type: 'string', enum: ['pending', 'delivered', 'dead'] } },
      before: ({ principal, params }) => target.mustExist(principal.tenantId, params.id).then(() => undefined),
      query: ({ principal, params, query }) => {
        const q = deliveriesOf(db, principal.tenantId, params.id, target.kind);
        return query.state ? q.andWhere({ state: query.state }) : q;
      },
      render: renderDelivery,
    }),

    route({
      method: 'get',
      path: `${target.base}/:id/deliveries/:delivery_id`,
      permission: 'settings:read',
      summary: `Get one of a ${target.what}'s deliveries with its attempts`,
      responses: { 200: deliveryWithAttemptsSchema },
      async handle({ principal, params }) {
        await target.mustExist(principal.tenantId, params.id);
        const d = await findDelivery(db, principal.tenantId, params.id, params.delivery_id, target.kind);
        if (!d) throw new NotFound(`${target.what} delivery`);
        const body: WebhookDeliveryWithAttempts = { ...renderDelivery(d), attempt_log: (await attemptsOf(db, principal.tenantId, d.id)).map(renderAttempt) };
        return { status: 200, body };
      },
    }),

    ...(republishTo
      ? [
          route({
            method: 'post',
            path: `${target.base}/:id/deliveries/:delivery_id/retry`,
            permission: 'settings:write',
            summary: `Republish a ${target.what}'s delivery (same seq and bytes, 8 new attempts)`,
            responses: { 201: deliverySchema },
            async handle({ principal, params, write }) {
              await target.mustExist(principal.tenantId, params.id);
              const source = await findDelivery(db, principal.tenantId, params.id, params.delivery_id, target.kind);
              if (!source) throw new NotFound(`${target.what} delivery`);
              // Same seq, same bytes, a new record; addressed to the target's URL as it is now.
              const copy = await republish(db, source, await republishTo(principal.tenantId, params.id, source), clock.now(), write.ids.uuid());
              return { status: 201, body: renderDelivery(copy) };
            },
          }) as RouteDef,
        ]
      : []),
  ];
}

export function deliveriesRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;
  const endpointOr404 = async (tenantId: string, id: string) => {
    const e = await findEndpoint(db, tenantId, id);
    if (!e) throw new NotFound('webhook endpoint');
    return e;
  };
  const channelOr404 = async (tenantId: string, id: string) => {
    const c = await findChannel(db, tenantId, id);
    if (!c) throw new NotFound('channel');
    return c;
  };

  return [
    ...deliveryLogRoutes(deps, {
      base: '/webhooks',
      kind: 'endpoint',
      what: 'webhook',
      mustExist: endpointOr404,
      republishTo: async (tenantId, id) => (await endpointOr404(tenantId, id)).url,
    }),
    ...deliveryLogRoutes(deps, { base: '/channels', kind: 'channel', what: 'channel', mustExist: channelOr404 }),
  ];
}
