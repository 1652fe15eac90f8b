// The delivery log of a channel's replies (posted to its webhook_url).
import type { RouteDef } from '../../api/routes.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { deliveryLogRoutes } from '../webhooks/delivery-log.routes.js';
import { findChannel } from './channels.read.js';

export function channelDeliveryRoutes(deps: CoreDeps): RouteDef[] {
  return deliveryLogRoutes(deps, {
    base: '/channels',
    kind: 'channel',
    what: 'channel',
    mustExist: async (tenantId, id) => {
      if (!(await findChannel(deps.db, tenantId, id))) throw new NotFound('channel');
    },
  });
}
