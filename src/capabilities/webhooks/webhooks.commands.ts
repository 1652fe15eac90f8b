import { randomBytes } from 'node:crypto';
import type { CommandSpec } from '../../commands/command.js';
import { sealedSecrets } from '../../commands/beside-secrets.js';
import type { Sealer } from '../../platform/crypto/seal.js';
import { decideCreateEndpoint, decideDeleteEndpoint, decideUpdateEndpoint, type EndpointChanges, type EndpointView } from './webhooks.decider.js';
import type { WebhookEvent } from './webhooks.events.js';
import { endpointView, findEndpoint } from './webhooks.read.js';

const mintEndpointSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** Endpoint signing secrets: minted once, shown once, sealed beside the log with the tenant and endpoint as associated data. */
export const endpointSecrets = (sealer: Sealer) => sealedSecrets({ table: 'webhook_endpoint_secrets', owner: 'endpoint_id', purpose: 'webhook' }, sealer);

export function createEndpoint(input: { endpointId: string; url: string; eventNames: string[]; description: string; enabled: boolean }, sealer: Sealer) {
  const secret = mintEndpointSecret();
  const secrets = endpointSecrets(sealer);
  const spec: CommandSpec<null, WebhookEvent> = {
    name: 'CreateWebhookEndpoint',
    load: async () => null,
    decide: () => decideCreateEndpoint(input),
    beside: (db, events, ctx) => secrets.store(db, ctx.tenantId, events[0]!.aggregate_id, secret, { created_at: ctx.now }),
    // The first attempt's secret was never shown (its answer was lost): this one replaces it.
    replayed: (db, events, ctx) => secrets.replace(db, ctx.tenantId, events[0]!.aggregate_id, secret),
  };
  return { spec, secret };
}

export const updateEndpoint = (input: { endpointId: string; changes: EndpointChanges }): CommandSpec<EndpointView | null, WebhookEvent> => ({
  name: 'UpdateWebhookEndpoint',
  load: async (db, ctx) => endpointView(await findEndpoint(db, ctx.tenantId, input.endpointId)),
  decide: (endpoint) => decideUpdateEndpoint(input, endpoint),
});

/** Deleting an endpoint removes its secret and its delivery history (attempts cascade). */
export const deleteEndpoint = (input: { endpointId: string }, sealer: Sealer): CommandSpec<EndpointView | null, WebhookEvent> => ({
  name: 'DeleteWebhookEndpoint',
  load: async (db, ctx) => endpointView(await findEndpoint(db, ctx.tenantId, input.endpointId)),
  decide: (endpoint) => decideDeleteEndpoint(input, endpoint),
  beside: async (db, _events, ctx) => {
    await endpointSecrets(sealer).remove(db, ctx.tenantId, input.endpointId);
    await db('webhook_deliveries').where({ tenant_id: ctx.tenantId, target_kind: 'endpoint', target_id: input.endpointId }).del();
  },
});
