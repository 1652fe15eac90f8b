// Wires the capabilities together: their routes, projectors and workers, and
// the request pipeline (authentication, idempotency) every route runs through.
import type { Request } from 'express';
import type { RouteDef, RoutePipeline } from '../api/routes.js';
import { Idempotency } from '../api/idempotency/idempotency.js';
import type { Projector } from '../projections/projector.js';
import type { CoreDeps, Worker } from './capability.js';
import { Authenticator } from './access/authenticator.js';
import { sessionRoutes } from './access/session.routes.js';
import { keysProjector } from './keys/keys.projection.js';
import { keyRoutes } from './keys/keys.routes.js';
import { membersProjector } from './members/members.projection.js';
import { memberRoutes } from './members/members.routes.js';
import { workspacesProjector } from './workspaces/workspaces.projection.js';
import { channelsProjector } from './channels/channels.projection.js';
import { channelRoutes } from './channels/channels.routes.js';
import { inboundRoute } from './channels/inbound.route.js';
import { channelDeliveryRoutes } from './channels/channel-deliveries.routes.js';
import { contactsProjector } from './contacts/contacts.projection.js';
import { conversationsProjector } from './conversations/conversations.projection.js';
import { conversationRoutes } from './conversations/conversations.routes.js';
import { unsnoozeWorker } from './conversations/unsnooze.worker.js';
import { feedProjector } from './feed/feed.projection.js';
import { feedRoutes } from './feed/feed.routes.js';
import { idempotencySweeper } from '../api/idempotency/sweeper.js';
import { webhooksCapability, webhooksProjector } from './webhooks/index.js';

/** Every projector, in the order they apply (parents before children). */
export function allProjectors(): Projector[] {
  return [feedProjector, workspacesProjector, membersProjector, keysProjector, channelsProjector, contactsProjector, conversationsProjector, webhooksProjector];
}

export interface Wired {
  routes: RouteDef[];
  workers: Worker[];
  pipeline: RoutePipeline;
}

export function buildCapabilities(deps: CoreDeps): Wired {
  const auth = new Authenticator(deps.db, deps.clock);
  void auth.watch(deps.shell, deps.notifier).catch((e) => deps.log.warn({ err: e }, 'auth cache invalidation could not listen'));
  const idempotency = new Idempotency(deps.db, deps.clock, deps.sealer);
  const pipeline: RoutePipeline = {
    authenticate: (req: Request) => auth.authenticate(req),
    requireFreshSession: (p) => auth.requireFreshSession(p),
    idempotent: (req, principal, run) => idempotency.run(req, principal, run),
  };
  const webhooks = webhooksCapability(deps);
  return {
    routes: [...webhooks.routes, ...sessionRoutes(deps), ...memberRoutes(deps), ...keyRoutes(deps), inboundRoute(deps), ...channelRoutes(deps), ...channelDeliveryRoutes(deps), ...conversationRoutes(deps), ...feedRoutes(deps)],
    workers: [idempotencySweeper(idempotency, deps.log), unsnoozeWorker(deps), ...(webhooks.workers ?? [])],
    pipeline,
  };
}
