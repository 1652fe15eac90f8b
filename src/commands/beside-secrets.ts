// The one way to keep a secret beside the log (design invariant 6): no event
// carries it; the row is written by a command's `beside` hook, in the same
// transaction as the events. Two kinds:
//  - hashed: verified, never shown again (API keys, invite tokens): SHA-256 only.
//  - sealed: read back to sign with (endpoint and channel secrets): AES-256-GCM
//    with the tenant and owner id as associated data, so a copied row opens nowhere else.
import type { Sealer, SealPurpose } from '../platform/crypto/seal.js';
import { sha256Hex } from '../platform/crypto/hmac.js';
import type { Db } from './command.js';

export interface HashedSecrets {
  store(db: Db, tenantId: string, ownerId: string, secret: string): Promise<void>;
  /** re-keys the owner: the old secret stops verifying in the same transaction */
  replace(db: Db, tenantId: string, ownerId: string, secret: string): Promise<void>;
  remove(db: Db, tenantId: string, ownerId: string): Promise<void>;
}

export function hashedSecrets(t: { table: string; owner: string; hash: string }): HashedSecrets {
  return {
    async store(db, tenantId, ownerId, secret) {
      await db(t.table).insert({ tenant_id: tenantId, [t.owner]: ownerId, [t.hash]: sha256Hex(secret) });
    },
    async replace(db, tenantId, ownerId, secret) {
      await db(t.table)
        .where({ tenant_id: tenantId, [t.owner]: ownerId })
        .update({ [t.hash]: sha256Hex(secret) });
    },
    async remove(db, tenantId, ownerId) {
      await db(t.table)
        .where({ tenant_id: tenantId, [t.owner]: ownerId })
        .del();
    },
  };
}

export interface SealedSecrets {
  readonly purpose: SealPurpose;
  /** a new row for the owner; `extra` columns (rotation bookkeeping) ride along */
  store(db: Db, tenantId: string, ownerId: string, secret: string, extra?: Record<string, unknown>): Promise<void>;
  /** re-seals every row of the owner with a new secret */
  replace(db: Db, tenantId: string, ownerId: string, secret: string): Promise<void>;
  remove(db: Db, tenantId: string, ownerId: string): Promise<void>;
  /** the sealed form of a secret for this owner */
  seal(tenantId: string, ownerId: string, secret: string): string;
  /** the plaintext of a row of this owner, or null when it does not open here */
  open(tenantId: string, ownerId: string, sealed: string): string | null;
  /** the owner's current secret, opened (the one to sign with now); null when there is none or it does not open */
  current(db: Db, tenantId: string, ownerId: string): Promise<string | null>;
}

/** `retiredBy`: a column set when a row stops being current (rotation keeps it verifying a while); its null rows are current. */
export function sealedSecrets(t: { table: string; owner: string; purpose: SealPurpose; retiredBy?: string }, sealer: Sealer): SealedSecrets {
  const self: SealedSecrets = {
    purpose: t.purpose,
    async store(db, tenantId, ownerId, secret, extra = {}) {
      await db(t.table).insert({ tenant_id: tenantId, [t.owner]: ownerId, sealed: sealer.seal(t.purpose, tenantId, ownerId, secret), ...extra });
    },
    async replace(db, tenantId, ownerId, secret) {
      await db(t.table)
        .where({ tenant_id: tenantId, [t.owner]: ownerId })
        .update({ sealed: sealer.seal(t.purpose, tenantId, ownerId, secret) });
    },
    async remove(db, tenantId, ownerId) {
      await db(t.table)
        .where({ tenant_id: tenantId, [t.owner]: ownerId })
        .del();
    },
    seal: (tenantId, ownerId, secret) => sealer.seal(t.purpose, tenantId, ownerId, secret),
    open(tenantId, ownerId, sealed) {
      try {
        return sealer.open(t.purpose, tenantId, ownerId, sealed);
      } catch {
        // Copied from elsewhere, or sealed under another key: it opens nothing here.
        return null;
      }
    },
    async current(db, tenantId, ownerId) {
      const q = db(t.table).where({ tenant_id: tenantId, [t.owner]: ownerId });
      const row = (await (t.retiredBy ? q.whereNull(t.retiredBy) : q).first('sealed')) as { sealed: string } | undefined;
      return row ? self.open(tenantId, ownerId, row.sealed) : null;
    },
  };
  return self;
}
