// Channel secrets live beside the log, sealed with a key derived from
// SERVICE_CHANNELS_SECRET and bound to (tenant, channel): a row copied to
// another channel or workspace does not open. Rotation keeps the previous
// secret verifying until its grace period ends.
import type { Knex } from 'knex';
import type { Sealer } from '../../platform/crypto/seal.js';

export interface SecretRow {
  tenant_id: string;
  channel_id: string;
  id: string;
  sealed: string;
  created_at: Date;
  valid_until: Date | null;
}

export async function storeNewSecret(
  db: Knex | Knex.Transaction,
  sealer: Sealer,
  row: { tenantId: string; channelId: string; id: string; secret: string; now: Date },
): Promise<void> {
  await db('channel_secrets').insert({
    tenant_id: row.tenantId,
    channel_id: row.channelId,
    id: row.id,
    sealed: sealer.seal('channel', row.tenantId, row.channelId, row.secret),
    created_at: row.now,
    valid_until: null,
  });
}

/** Retires the current secret (it verifies until `graceUntil`) and drops ones whose grace ended. */
export async function retireCurrentSecret(db: Knex | Knex.Transaction, tenantId: string, channelId: string, graceUntil: Date, now: Date): Promise<void> {
  await db('channel_secrets').where({ tenant_id: tenantId, channel_id: channelId }).whereNotNull('valid_until').andWhere('valid_until', '<=', now).del();
  await db('channel_secrets').where({ tenant_id: tenantId, channel_id: channelId }).whereNull('valid_until').update({ valid_until: graceUntil });
}

/** The secrets a signature may be made with now: the current one and any still in grace. */
export async function verifyingSecrets(db: Knex, sealer: Sealer, tenantId: string, channelId: string, now: Date): Promise<string[]> {
  const rows: SecretRow[] = await db('channel_secrets')
    .where({ tenant_id: tenantId, channel_id: channelId })
    .andWhere((q) => q.whereNull('valid_until').orWhere('valid_until', '>', now))
    .orderBy('created_at', 'desc');
  const out: string[] = [];
  for (const r of rows) {
    try {
      out.push(sealer.open('channel', tenantId, channelId, r.sealed));
    } catch {
      // A row that does not open here (copied from elsewhere, or sealed under another key) verifies nothing.
    }
  }
  return out;
}

export async function currentSecret(db: Knex, sealer: Sealer, tenantId: string, channelId: string): Promise<string | null> {
  const row: SecretRow | undefined = await db('channel_secrets').where({ tenant_id: tenantId, channel_id: channelId }).whereNull('valid_until').first();
  if (!row) return null;
  try {
    return sealer.open('channel', tenantId, channelId, row.sealed);
  } catch {
    return null;
  }
}
