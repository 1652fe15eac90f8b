// Channel secrets live beside the log, sealed with a key derived from
// SERVICE_CHANNELS_SECRET and bound to (tenant, channel): a row copied to
// another channel or workspace does not open. Rotation keeps the previous
// secret verifying until its grace period ends.
import { sealedSecrets, type SealedSecrets } from '../../commands/beside-secrets.js';
import type { Db } from '../../commands/command.js';
import type { Sealer } from '../../platform/crypto/seal.js';

export class ChannelSecrets {
  private readonly rows: SealedSecrets;

  constructor(sealer: Sealer) {
    this.rows = sealedSecrets({ table: 'channel_secrets', owner: 'channel_id', purpose: 'channel' }, sealer);
  }

  /** A new current secret for the channel. */
  add(db: Db, row: { tenantId: string; channelId: string; id: string; secret: string; now: Date }): Promise<void> {
    return this.rows.store(db, row.tenantId, row.channelId, row.secret, { id: row.id, created_at: row.now, valid_until: null });
  }

  /** Re-seals the current secret with a new value (a resumed rotation whose first secret was never shown). */
  async replaceCurrent(db: Db, tenantId: string, channelId: string, secret: string): Promise<void> {
    await db('channel_secrets').where({ tenant_id: tenantId, channel_id: channelId }).whereNull('valid_until').update({ sealed: this.rows.seal(tenantId, channelId, secret) });
  }

  /** Retires the current secret (it verifies until `graceUntil`) and drops ones whose grace ended. */
  async retireCurrent(db: Db, tenantId: string, channelId: string, graceUntil: Date, now: Date): Promise<void> {
    await db('channel_secrets').where({ tenant_id: tenantId, channel_id: channelId }).whereNotNull('valid_until').andWhere('valid_until', '<=', now).del();
    await db('channel_secrets').where({ tenant_id: tenantId, channel_id: channelId }).whereNull('valid_until').update({ valid_until: graceUntil });
  }

  /** The secrets a signature may be made with now: the current one and any still in grace. */
  async verifying(db: Db, tenantId: string, channelId: string, now: Date): Promise<string[]> {
    const rows: { sealed: string }[] = await db('channel_secrets')
      .where({ tenant_id: tenantId, channel_id: channelId })
      .andWhere((q) => q.whereNull('valid_until').orWhere('valid_until', '>', now))
      .orderBy('created_at', 'desc');
    return rows.map((r) => this.rows.open(tenantId, channelId, r.sealed)).filter((s): s is string => s !== null);
  }
}
