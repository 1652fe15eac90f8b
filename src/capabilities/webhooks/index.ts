// Webhooks: endpoints (routes, projection), the delivery log of endpoints and
// channels, and the background workers that dispatch and send (src/dispatch),
// run with this capability's routing rules.
import type { Knex } from 'knex';
import { defineModule } from '../capability.js';
import { webhookDispatcher } from '../../dispatch/dispatcher.js';
import { deliveryWorker } from '../../dispatch/delivery-worker.js';
import { Sender } from '../../dispatch/sender.js';
import { deliveriesRoutes } from './deliveries.routes.js';
import { webhookEvents } from './webhooks.events.js';
import { webhooksProjector } from './webhooks.projection.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { EMAIL_TARGET, webhookRoutingRules } from './webhooks.routing.js';
import { emailTransport } from '../email/index.js';
import { endpointSecrets } from './webhooks.commands.js';
import { ChannelSecrets } from '../channels/index.js';
import { partFiles, withDownloadUrls } from '../conversations/index.js';
import { defineErrors } from '../../platform/errors.js';
import { extensionPoint } from '../additions.js';
import type { Sealer } from '../../platform/crypto/seal.js';
import type { TargetKind } from '../../dispatch/deliveries.repo.js';

export { webhookRoutingRules } from './webhooks.routing.js';
export { deliveryLogRoutes } from './deliveries.routes.js';

/**
 * Delivery targets another capability owns (an automation rule's `call_url`): what signs their deliveries. The
 * delivery worker sends them as it sends a webhook's, through the same outbox, retries and delivery log.
 */
export interface DeliveryTargetKind {
  kind: Exclude<TargetKind, 'endpoint' | 'channel'>;
  /** how to find a target's signing secret, opened (null when there is none), with the service's sealer */
  secrets(sealer: Sealer): (db: Knex, tenantId: string, targetId: string) => Promise<string | null>;
}
export const deliveryTargets = extensionPoint<DeliveryTargetKind>('webhooks: delivery targets');

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  secret_immutable: { status: 400, when: 'Sending `secret` when changing an endpoint: rotate it instead.' },
});

export const webhooksModule = defineModule({
  name: 'webhooks',
  errors,
  tables: ['webhook_endpoint_secrets'],
  events: webhookEvents,
  projectors: [webhooksProjector],
  routes: (deps) => [...webhooksRoutes(deps), ...deliveriesRoutes(deps)],
  // The dispatcher first: on stop, workers end first (reverse order), then the dispatcher.
  // The dispatcher hands the deliveries it creates to this process's worker (Handoff in delivery-worker.ts).
  workers: (deps) => {
    // The worker signs with secrets this capability and channels keep beside the log: their lookups, handed in.
    const endpoints = endpointSecrets(deps.sealer);
    const channels = new ChannelSecrets(deps.sealer);
    const others = new Map(deps.additions.to(deliveryTargets).map((t) => [t.kind, t.secrets(deps.sealer)]));
    const signingSecret = (db: Knex, kind: TargetKind, tenantId: string, targetId: string) =>
      kind === 'endpoint'
        ? endpoints.current(db, tenantId, targetId)
        : kind === 'channel'
          ? channels.current(db, tenantId, targetId)
          : (others.get(kind)?.(db, tenantId, targetId) ?? Promise.resolve(null));
    const files = deps.additions.one(partFiles)?.(deps) ?? null;
    const worker = deliveryWorker(
      // An e-mail channel's replies (targets `email:<address>`) go out through the SMTP relay instead of a POST.
      {
        ...deps,
        signingSecret,
        sender: new Sender(deps.urlPolicy, deps.config.webhookTimeoutMs),
        transports: { [EMAIL_TARGET]: emailTransport(deps) },
        // A bridge holds no key: an uploaded file it relays comes with a download URL that expires.
        ...(files ? { forBridge: withDownloadUrls(files, () => deps.clock.now(), deps.config.uploadUrlTtlSeconds) } : {}),
      },
      { retryBaseSeconds: deps.config.webhookRetryBaseSeconds, timeoutMs: deps.config.webhookTimeoutMs },
    );
    return [webhookDispatcher({ ...deps, rules: webhookRoutingRules, handoff: worker }), worker];
  },
});
