// Channel secrets live beside the log, sealed with a key derived from
// SERVICE_CHANNELS_SECRET and bound to (tenant, channel): a row copied to
// another channel or workspace does not open. Rotation keeps the previous
// secret verifying until its grace period ends (only the latest rotation's).
import { sealedSecrets, type SealedSecrets } from '../../commands/beside-secrets.js';
import type { Db } from '../../commands/command.js';
import type { ChannelRow } from './channels.read.js';
import type { Sealer } from '../../platform/crypto/seal.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';

/** What the post first accepted with a signature filed, or found filed already. */
export interface FirstFiling {
  conversationId: string | null;
  partId: string | null;
}

export class ChannelSecrets {
  private readonly rows: SealedSecrets;
  private lastSweep = 0;

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

  /**
   * Retires the current secret: it verifies until `graceUntil`, or stops now (null). Every secret an earlier rotation
   * retired stops now whatever its grace: only the latest rotation's predecessor may still verify, so rotating cuts
   * off a leaked secret however many rotations ago it was current.
   */
  async retireCurrent(db: Db, tenantId: string, channelId: string, graceUntil: Date | null): Promise<void> {
    await db('channel_secrets').where({ tenant_id: tenantId, channel_id: channelId }).whereNotNull('valid_until').del();
    const current = db('channel_secrets').where({ tenant_id: tenantId, channel_id: channelId }).whereNull('valid_until');
    await (graceUntil ? current.update({ valid_until: graceUntil }) : current.del());
  }

  /** Everything a deleted channel kept beside the log: its secrets, its DKIM key, the signatures it remembers. */
  async removeAll(db: Db, tenantId: string, channelId: string): Promise<void> {
    await this.rows.remove(db, tenantId, channelId);
    await db('channel_dkim_keys').where({ tenant_id: tenantId, channel_id: channelId }).del();
    await db('inbound_signatures').where({ tenant_id: tenantId, channel_id: channelId }).del();
  }

  /**
   * A channel by id, found across workspaces (the signed routes: the id names the workspace), with the secrets a
   * signature may be made with now, in one statement. Null when there is no such channel; a disabled channel has no
   * verifying secret. `presented`: the request's signature; `first` is what the post accepted with it filed, when
   * it is still remembered (see rememberSignature), null otherwise.
   */
  async channelWithVerifying(
    db: Db,
    channelId: string,
    now: Date,
    presented: string,
  ): Promise<{ channel: ChannelRow; secrets: string[]; first: FirstFiling | null } | null> {
    const res = await db.raw(
      `SELECT c.*, COALESCE((
          SELECT json_agg(s.sealed ORDER BY s.created_at DESC) FROM channel_secrets s
           WHERE s.tenant_id = c.tenant_id AND s.channel_id = c.id AND c.enabled AND (s.valid_until IS NULL OR s.valid_until > ?)
        ), '[]') AS verifying_secrets,
        (SELECT json_build_object('conversationId', r.conversation_id, 'partId', r.part_id) FROM inbound_signatures r
          WHERE r.signature_hash = ? AND r.expires_at > ?) AS first_filing
         FROM channels c WHERE c.id = ?`,
      [now, signatureHash(channelId, presented), now, channelId],
    );
    const row = res.rows[0] as (ChannelRow & { verifying_secrets: string[]; first_filing: FirstFiling | null }) | undefined;
    if (!row) return null;
    const { verifying_secrets, first_filing, ...channel } = row;
    return {
      channel,
      secrets: verifying_secrets.map((sealed) => this.rows.open(channel.tenant_id, channel.id, sealed)).filter((x): x is string => x !== null),
      first: first_filing,
    };
  }

  /**
   * Remembers the signature of an accepted post, and what it filed, until `until`. The same bytes posted at once
   * by two callers both reach their route, whose own rules file them once; the memory then holds the later answer.
   */
  async rememberSignature(db: Db, s: { tenantId: string; channelId: string; signature: string; until: Date; first: FirstFiling }): Promise<void> {
    await db.raw(
      `INSERT INTO inbound_signatures AS r (signature_hash, tenant_id, channel_id, expires_at, conversation_id, part_id) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (signature_hash) DO UPDATE SET expires_at = EXCLUDED.expires_at, conversation_id = EXCLUDED.conversation_id, part_id = EXCLUDED.part_id`,
      [signatureHash(s.channelId, s.signature), s.tenantId, s.channelId, s.until, s.first.conversationId, s.first.partId],
    );
  }

  /**
   * Forgets the signatures whose time is up (the owner role: every workspace's), at most every few minutes per
   * process: one statement, in the request that happens to come first. A failure is left to the next sweep.
   */
  async sweepSignatures(db: Db, now: Date): Promise<void> {
    // A clock set back (a step of NTP) sweeps now rather than once it has caught up with the last sweep.
    const since = now.getTime() - this.lastSweep;
    if (since >= 0 && since < SWEEP_EVERY_MS) return;
    this.lastSweep = now.getTime();
    await db('inbound_signatures')
      .where('expires_at', '<=', now)
      .del()
      .catch(() => undefined);
  }
}

const SWEEP_EVERY_MS = 5 * 60_000;

/** What is kept of a signature: its hash, bound to the channel (the same bytes signed for two channels differ anyway). */
const signatureHash = (channelId: string, signature: string): string => sha256Hex(`${channelId.toLowerCase()}:${signature.trim().toLowerCase()}`);
