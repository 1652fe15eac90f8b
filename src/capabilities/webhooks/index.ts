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

export { webhookRoutingRules } from './webhooks.routing.js';

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
    const signingSecret = (db: Knex, kind: 'endpoint' | 'channel', tenantId: string, targetId: string) =>
      kind === 'endpoint' ? endpoints.current(db, tenantId, targetId) : channels.current(db, tenantId, targetId);
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
