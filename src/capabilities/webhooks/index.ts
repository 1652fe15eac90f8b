// The webhooks capability: endpoint routes and projection, the delivery log,
// and the background workers that dispatch and send (src/dispatch).
import type { CoreDeps, Capability } from '../capability.js';
import { webhookDispatcher } from '../../dispatch/dispatcher.js';
import { deliveryWorker } from '../../dispatch/delivery-worker.js';
import { Sender } from '../../dispatch/sender.js';
import { webhookRoutes } from './webhooks.routes.js';
import { deliveryRoutes } from './deliveries.routes.js';

export { webhooksProjector } from './webhooks.projection.js';

export function webhooksCapability(deps: CoreDeps): Capability {
  const { config } = deps;
  const policy = deps.urlPolicy;
  const sender = new Sender(policy, config.webhookTimeoutMs);
  return {
    routes: [...webhookRoutes(deps, policy), ...deliveryRoutes(deps)],
    // The dispatcher first: on stop, workers end first (reverse order), then the dispatcher.
    workers: [
      webhookDispatcher(deps),
      deliveryWorker({ ...deps, sender }, { retryBaseSeconds: config.webhookRetryBaseSeconds, timeoutMs: config.webhookTimeoutMs }),
    ],
  };
}
