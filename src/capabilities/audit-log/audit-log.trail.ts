// Writes the audit log's entries beside the log (audit_entries): what is not an event (audit-log.actions.ts).
// Each entry is written in its workspace's scope (row-level security), its client sealed under the data key of
// the member it is about (audit-log.seal.ts).
import type { RequestClient } from '../../commands/command.js';
import type { Principal } from '../../api/context.js';
import type { Db } from '../../platform/db/database.js';
import type { CoreDeps } from '../capability.js';
import type { AuditAction } from './audit-log.actions.js';
import { ClientSeals, type ClientSubject } from './audit-log.seal.js';

export interface AuditActor {
  type: 'member' | 'api_key' | 'channel' | 'system' | 'job' | 'rule';
  id: string;
  member_id?: string | null;
}

export interface NewAuditEntry {
  tenantId: string;
  action: AuditAction;
  aggregate: { type: string; id: string };
  actor: AuditActor;
  /** whose data key seals the client; by default the actor's member */
  subject?: ClientSubject | null;
  client?: RequestClient | null;
  requestId?: string | null;
}

/** The actor of an authenticated call: the API key (and its member), or the member signed in. */
export const actorOf = (p: Principal): AuditActor =>
  p.via === 'api_key' ? { type: 'api_key', id: p.keyId!, member_id: p.memberId } : { type: 'member', id: p.memberId, member_id: p.memberId };

export class AuditTrail {
  private readonly seals: ClientSeals;

  constructor(private readonly deps: Pick<CoreDeps, 'db' | 'scope' | 'forgettable' | 'clock' | 'ids'>) {
    this.seals = new ClientSeals(deps.forgettable);
  }

  /** Records entries, each in its workspace. `db`: a transaction the caller is in (its scope entered), else the pool. */
  async record(entries: readonly NewAuditEntry[], db?: Db): Promise<void> {
    const byTenant = new Map<string, NewAuditEntry[]>();
    for (const e of entries) byTenant.set(e.tenantId, [...(byTenant.get(e.tenantId) ?? []), e]);
    for (const [tenantId, own] of byTenant) {
      if (db) await this.write(db, tenantId, own);
      else await this.deps.scope.run(tenantId, () => this.write(this.deps.db, tenantId, own));
    }
  }

  private async write(db: Db, tenantId: string, entries: readonly NewAuditEntry[]): Promise<void> {
    const now = this.deps.clock.now();
    const sealed = await this.seals.seal(
      db,
      tenantId,
      entries.map((e) => {
        const subject = e.subject !== undefined ? e.subject : e.actor.member_id ? { kind: 'member' as const, id: e.actor.member_id } : null;
        return subject && e.client ? { subject, client: e.client } : null;
      }),
    );
    await db('audit_entries').insert(
      entries.map((e, i) => ({
        tenant_id: tenantId,
        id: this.deps.ids.uuid(),
        action: e.action,
        aggregate_type: e.aggregate.type,
        aggregate_id: e.aggregate.id,
        actor_type: e.actor.type,
        actor_id: e.actor.id,
        actor_member_id: e.actor.member_id ?? null,
        client: sealed[i] ? JSON.stringify(sealed[i]) : null,
        request_id: e.requestId ?? null,
        created_at: now,
      })),
    );
  }
}
