// `api_key.new_address`: the first time an API key is used from an address, an entry in its workspace's audit log.
// Which addresses a key was used from is kept as a keyed MAC of (workspace, key, address) in audit_key_addresses,
// never the address (the entry holds it, sealed); the MAC's key is derived from the service's secrets key, so the
// table alone does not give the addresses back. Rows go with the member's erasure (audit-log.projection.ts) and
// after AUDIT_RETENTION_DAYS (then a use from that address is new again). A process remembers what it has seen,
// so a key's steady traffic costs nothing: only its first request from an address in each process looks.
import { createHmac, hkdfSync } from 'node:crypto';
import type { Knex } from 'knex';
import type { RequestClient } from '../../commands/command.js';
import type { Principal } from '../../api/context.js';
import { secretsKey } from '../../platform/secrets-key.js';
import type { CoreDeps } from '../capability.js';
import { actorOf, AuditTrail } from './audit-log.trail.js';

const SEEN_MAX = 50_000;

export class KeyAddresses {
  /** (workspace, key, address) → when this process last made sure its row exists */
  private readonly seen = new Map<string, number>();
  /** first uses being recorded: concurrent requests of a new address wait for one check */
  private readonly checking = new Map<string, Promise<void>>();
  private key: Promise<Buffer> | null = null;
  private readonly trail: AuditTrail;

  /** `deps.db`: the owner pool (a key is checked before its request enters its workspace's scope). */
  constructor(private readonly deps: Pick<CoreDeps, 'db' | 'scope' | 'forgettable' | 'clock' | 'ids' | 'config'>) {
    this.trail = new AuditTrail(deps);
  }

  private macKey(): Promise<Buffer> {
    if (!this.key) {
      const key = secretsKey(this.deps.config.secretsKey, this.deps.config.dataDir).then((s) =>
        Buffer.from(hkdfSync('sha256', Buffer.from(s, 'utf8'), Buffer.alloc(0), 'conversation-service/audit-key-address/v1', 32)),
      );
      key.catch(() => (this.key = null));
      this.key = key;
    }
    return this.key;
  }

  /** Records the key's first use from the request's address (an API-key principal with an address; else nothing). */
  async noted(p: Principal, client: RequestClient, requestId: string): Promise<void> {
    if (p.via !== 'api_key' || !p.keyId || !client.ip) return;
    const seen = JSON.stringify([p.tenantId, p.keyId, client.ip]);
    const at = this.seen.get(seen);
    // Past the retention the row may have been swept: look again (the address then counts as new).
    if (at !== undefined && this.deps.clock.now().getTime() - at < this.deps.config.auditRetentionDays * 86_400_000) return;
    let check = this.checking.get(seen);
    if (!check) {
      check = this.check(p, client, requestId, seen).finally(() => this.checking.delete(seen));
      this.checking.set(seen, check);
    }
    await check;
  }

  private async check(p: Principal, client: RequestClient, requestId: string, seen: string): Promise<void> {
    const mac = createHmac('sha256', await this.macKey())
      .update(seen)
      .digest('base64url');
    const now = this.deps.clock.now();
    await this.deps.scope.run(p.tenantId, () =>
      this.deps.db.transaction(async (trx: Knex.Transaction) => {
        const inserted = await trx('audit_key_addresses')
          .insert({ tenant_id: p.tenantId, key_id: p.keyId, address_mac: mac, member_id: p.memberId, first_seen_at: now })
          .onConflict(['tenant_id', 'key_id', 'address_mac'])
          .ignore()
          .returning('key_id');
        if (inserted.length === 0) return;
        await this.trail.record(
          [{ tenantId: p.tenantId, action: 'api_key.new_address', aggregate: { type: 'api_key', id: p.keyId! }, actor: actorOf(p), client, requestId }],
          trx,
        );
      }),
    );
    if (this.seen.size >= SEEN_MAX) this.seen.clear();
    this.seen.set(seen, now.getTime());
  }
}
