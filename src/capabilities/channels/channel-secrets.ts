// Channel secrets live beside the log, sealed with a key derived from
// SERVICE_CHANNELS_SECRET and bound to (tenant, channel): a row copied to
// another channel or workspace does not open. Rotation keeps the previous
// secret verifying until its grace period ends.
import { sealedSecrets, type SealedSecrets } from '../../commands/beside-secrets.js';
import type { Db } from '../../commands/command.js';
import type { ChannelRow } from './channels.read.js';
import type { Sealer } from '../../platform/crypto/seal.js';

export class ChannelSecrets {
  private readonly rows: SealedSecrets;

  constructor(private readonly sealer: Sealer) {
    this.rows = sealedSecrets({ table: 'channel_secrets', owner: 'channel_id', purpose: 'channel', retiredBy: 'valid_until' }, sealer);
  }

  /** The secret replies to the channel's webhook_url are signed with now (spec 5.6); null when it has none. */
  current(db: Db, tenantId: string, channelId: string): Promise<string | null> {
    return this.rows.current(db, tenantId, channelId);
  }

  /** A new current secret for the channel. */
  add(db: Db, row: { tenantId: string; channelId: string; id: string; secret: string; now: Date }): Promise<void> {
    return this.rows.store(db, row.tenantId, row.channelId, row.secret, { id: row.id, created_at: row.now, valid_until: null });
  }

  /** Keeps an e-mail channel's DKIM private key (PEM), sealed; it is never shown again. */
  async addDkimKey(db: Db, row: { tenantId: string; channelId: string; selector: string; privateKey: string }): Promise<void> {
    await db('channel_dkim_keys').insert({
      tenant_id: row.tenantId,
      channel_id: row.channelId,
      selector: row.selector,
      sealed: this.sealer.seal('channel', row.tenantId, `${row.channelId}:dkim`, row.privateKey),
    });
  }

  /** The channel's DKIM selector and private key, opened; null when it has none or it does not open here. */
  async dkimKey(db: Db, tenantId: string, channelId: string): Promise<{ selector: string; privateKey: string } | null> {
    const row = (await db('channel_dkim_keys').where({ tenant_id: tenantId, channel_id: channelId }).first()) as
      { selector: string; sealed: string } | undefined;
    if (!row || !this.sealer.canSeal('channel')) return null;
    try {
      return { selector: row.selector, privateKey: this.sealer.open('channel', tenantId, `${channelId}:dkim`, row.sealed) };
    } catch {
      return null;
    }
  }

  /** Re-seals the current secret with a new value (a resumed rotation whose first secret was never shown). */
  async replaceCurrent(db: Db, tenantId: string, channelId: string, secret: string): Promise<void> {
    await db('channel_secrets')
      .where({ tenant_id: tenantId, channel_id: channelId })
      .whereNull('valid_until')
      .update({ sealed: this.rows.seal(tenantId, channelId, secret) });
  }

  /** Retires the current secret (it verifies until `graceUntil`) and drops ones whose grace ended. */
  async retireCurrent(db: Db, tenantId: string, channelId: string, graceUntil: Date, now: Date): Promise<void> {
    await db('channel_secrets').where({ tenant_id: tenantId, channel_id: channelId }).whereNotNull('valid_until').andWhere('valid_until', '<=', now).del();
    await db('channel_secrets').where({ tenant_id: tenantId, channel_id: channelId }).whereNull('valid_until').update({ valid_until: graceUntil });
  }

  /**
   * A channel by id, found across workspaces (the signed inbound route: the id names the workspace), with the
   * secrets a signature may be made with now, in one statement. Null when there is no such channel.
   */
  async channelWithVerifying(db: Db, channelId: string, now: Date): Promise<{ channel: ChannelRow; secrets: string[] } | null> {
    const res = await db.raw(
      `SELECT c.*, COALESCE((
          SELECT json_agg(s.sealed ORDER BY s.created_at DESC) FROM channel_secrets s
           WHERE s.tenant_id = c.tenant_id AND s.channel_id = c.id AND (s.valid_until IS NULL OR s.valid_until > ?)
        ), '[]') AS verifying_secrets
         FROM channels c WHERE c.id = ?`,
      [now, channelId],
    );
    const row = res.rows[0] as (ChannelRow & { verifying_secrets: string[] }) | undefined;
    if (!row) return null;
    const { verifying_secrets, ...channel } = row;
    return {
      channel,
      secrets: verifying_secrets.map((sealed) => this.rows.open(channel.tenant_id, channel.id, sealed)).filter((x): x is string => x !== null),
    };
  }
}
