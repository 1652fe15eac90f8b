// Signed checkpoints of a workspace's hash chain (docs/audit.md): `signature`
// is the base64url Ed25519 signature over the RFC 8785 canonical JSON of
// {tenant_id, seq, hash, signed_at}, by the key `kid` (GET /api/audit/keys).
// Every checkpoint issued is kept, so `audit verify` can hold each against the log.
import type { Db } from '../../commands/command.js';
import type { EventStore } from '../../eventstore/store.port.js';
import { constant, dateTime, int, object, str, uuid, type Static } from '../../api/schemas.js';
import { canonicalJson, canonicalReady, GENESIS } from '../../platform/crypto/chain.js';
import type { Signer } from '../../platform/crypto/signing.js';
import { Conflict } from '../../platform/errors.js';

export interface CheckpointRow {
  tenant_id: string;
  id: string;
  seq: number | string;
  hash: string;
  signed_at: Date;
  kid: string;
  signature: string;
}

export const renderCheckpoint = (r: CheckpointRow): Checkpoint => ({
  type: 'audit_checkpoint',
  id: r.id,
  tenant_id: r.tenant_id,
  seq: Number(r.seq),
  hash: r.hash,
  signed_at: r.signed_at.toISOString(),
  kid: r.kid,
  signature: r.signature,
});

export const checkpointSchema = object(
  {
    type: constant('audit_checkpoint'),
    id: uuid,
    tenant_id: uuid,
    seq: int,
    hash: str({ description: 'The chain hash of the event at `seq` (hex SHA-256); for seq 0, the genesis value.' }),
    signed_at: dateTime,
    kid: str({ description: 'The key that signed it (GET /api/audit/keys).' }),
    signature: str({ description: 'base64url Ed25519 signature over the RFC 8785 canonical JSON of {tenant_id, seq, hash, signed_at}.' }),
  },
  { title: 'AuditCheckpoint' },
);
export type Checkpoint = Static<typeof checkpointSchema>;

/** The bytes a checkpoint's signature covers: the RFC 8785 canonical JSON of these four members (after canonicalReady). */
export function signedBytes(c: { tenant_id: string; seq: number; hash: string; signed_at: string }): string {
  return canonicalJson({ tenant_id: c.tenant_id, seq: c.seq, hash: c.hash, signed_at: c.signed_at });
}

/** The workspace's chain head: its last seq and that event's hash (seq 0 and the genesis value for an empty log). */
export async function chainHead(store: EventStore, tenantId: string): Promise<{ seq: number; hash: string }> {
  const head = await store.head(tenantId);
  return head === 0 ? { seq: 0, hash: GENESIS } : { seq: head, hash: await hashAt(store, tenantId, head) };
}

/** The stored chain hash of `seq` (GENESIS for 0). */
export async function hashAt(store: EventStore, tenantId: string, seq: number): Promise<string> {
  if (seq === 0) return GENESIS;
  const [event] = await store.readTenant(tenantId, seq - 1, 1, { sealed: true });
  if (!event || event.seq !== seq) throw new Error(`tenant ${tenantId}: no event at seq ${seq}`);
  if (!event.hash) {
    throw new Conflict(
      'audit_chain_incomplete',
      `The event at seq ${seq} carries no chain hash (it was written with AUDIT_CHAIN=off), so no checkpoint can cover it.`,
    );
  }
  return event.hash;
}

const CHECKPOINT_COLUMNS = ['tenant_id', 'id', 'seq', 'hash', 'signed_at', 'kid', 'signature'];

/**
 * A signed checkpoint of `seq` with `hash`. The last one issued for the same
 * seq and hash by the same key is answered again rather than signed anew: it
 * says the same thing, and a client polling an idle workspace does not grow the
 * table. The signer's public key is recorded beside it (old keys stay listed).
 */
export async function issueCheckpoint(db: Db, signer: Signer, c: { tenantId: string; id: string; seq: number; hash: string; now: Date }): Promise<Checkpoint> {
  const existing: CheckpointRow | undefined = await db('audit_checkpoints')
    .where({ tenant_id: c.tenantId, seq: c.seq, hash: c.hash, kid: signer.kid })
    .orderBy('signed_at', 'desc')
    .first(CHECKPOINT_COLUMNS);
  if (existing) return renderCheckpoint(existing);
  await canonicalReady;
  const signedAt = c.now.toISOString();
  const row: CheckpointRow = {
    tenant_id: c.tenantId,
    id: c.id,
    seq: c.seq,
    hash: c.hash,
    signed_at: new Date(signedAt),
    kid: signer.kid,
    signature: signer.sign(signedBytes({ tenant_id: c.tenantId, seq: c.seq, hash: c.hash, signed_at: signedAt })),
  };
  await db.raw(
    `WITH k AS (INSERT INTO audit_signing_keys (kid, jwk) VALUES (?, ?::jsonb) ON CONFLICT (kid) DO NOTHING)
     INSERT INTO audit_checkpoints (tenant_id, id, seq, hash, signed_at, kid, signature) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [signer.kid, JSON.stringify(signer.publicJwk), row.tenant_id, row.id, row.seq, row.hash, row.signed_at, row.kid, row.signature],
  );
  return renderCheckpoint(row);
}

/** Every checkpoint of the workspace, oldest first, a page at a time (`audit verify`). */
export async function checkpointsPage(db: Db, tenantId: string, after: { signed_at: Date; id: string } | null, limit: number): Promise<CheckpointRow[]> {
  const q = db('audit_checkpoints').where({ tenant_id: tenantId });
  if (after) q.andWhereRaw('(signed_at, id) > (?, ?::uuid)', [after.signed_at, after.id]);
  return q
    .orderBy([{ column: 'signed_at' }, { column: 'id' }])
    .limit(limit)
    .select(CHECKPOINT_COLUMNS);
}
