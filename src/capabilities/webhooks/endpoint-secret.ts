// Endpoint signing secrets: minted once, shown once, sealed at rest with the
// tenant and endpoint as associated data (a copied row does not open
// elsewhere). They live beside the log; no event carries them.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Sealer } from '../../platform/crypto/seal.js';

export const mintEndpointSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

export async function storeEndpointSecret(
  db: Knex | Knex.Transaction,
  sealer: Sealer,
  row: { tenantId: string; endpointId: string; secret: string; now: Date },
): Promise<void> {
  await db('webhook_endpoint_secrets').insert({
    tenant_id: row.tenantId,
    endpoint_id: row.endpointId,
    sealed: sealer.seal('webhook', row.tenantId, row.endpointId, row.secret),
    created_at: row.now,
  });
}

/** Deleting an endpoint removes its secret and its delivery history (attempts cascade). */
export async function forgetEndpoint(db: Knex | Knex.Transaction, tenantId: string, endpointId: string): Promise<void> {
  await db('webhook_endpoint_secrets').where({ tenant_id: tenantId, endpoint_id: endpointId }).del();
  await db('webhook_deliveries').where({ tenant_id: tenantId, target_kind: 'endpoint', target_id: endpointId }).del();
}
