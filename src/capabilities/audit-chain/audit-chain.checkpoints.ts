// Signed checkpoints of a workspace's hash chain (docs/audit.md): what a
// checkpoint says, the bytes its Ed25519 signature covers, and the hash by which
// the next checkpoint names it. Version 2 (issued now) signs
// {version, tenant_id, seq, hash, signed_at, prev_checkpoint}: `prev_checkpoint`
// is the hash of the canonical form of the checkpoint issued before it in the
// same workspace (null for the first), so a deleted or replaced checkpoint
// breaks the sequence, as CloudTrail's digest files do. Version 1 (before
// migration 049) signed {tenant_id, seq, hash, signed_at} and keeps verifying.
import { createHash } from 'node:crypto';
import type { Db } from '../../commands/command.js';
import type { EventStore } from '../../eventstore/store.port.js';
import { constant, dateTime, int, nullable, object, str, uuid, type Static } from '../../api/schemas.js';
import { canonicalJson, GENESIS } from '../../platform/crypto/chain.js';
import { signatureHolds } from '../../platform/crypto/signing.js';
import { Conflict } from '../../platform/errors.js';

/** The format checkpoints are issued in now. */
export const CHECKPOINT_VERSION = 2;

export interface CheckpointRow {
  tenant_id: string;
  id: string;
  version: number;
  seq: number | string;
  hash: string;
  signed_at: Date;
  prev_checkpoint: string | null;
  kid: string;
  signature: string;
}

export const CHECKPOINT_COLUMNS = ['tenant_id', 'id', 'version', 'seq', 'hash', 'signed_at', 'prev_checkpoint', 'kid', 'signature'];

export const checkpointSchema = object(
  {
    type: constant('audit_checkpoint'),
    id: uuid,
    version: int,
    tenant_id: uuid,
    seq: int,
    hash: str({ description: 'The chain hash of the event at `seq` (hex SHA-256); for seq 0, the genesis value.' }),
    signed_at: dateTime,
    prev_checkpoint: nullable(
      str({
        description:
          'Version 2: hex SHA-256 of the canonical form of the checkpoint issued before this one in the workspace (null for the first). Absent in version 1.',
      }),
    ),
    kid: str({ description: 'The key that signed it (GET /api/audit/keys).' }),
    signature: str({
      description:
        'Ed25519 signature, canonical unpadded base64url, over the RFC 8785 canonical JSON of {version, tenant_id, seq, hash, signed_at, prev_checkpoint} (version 1: {tenant_id, seq, hash, signed_at}).',
    }),
  },
  { title: 'AuditCheckpoint', optional: ['prev_checkpoint'] },
);
export type Checkpoint = Static<typeof checkpointSchema>;

/** What a checkpoint says, in any of its shapes (a row rendered, a witness line, an export's last line). */
export interface CheckpointFields {
  version?: number;
  tenant_id: string;
  seq: number;
  hash: string;
  signed_at: string;
  prev_checkpoint?: string | null;
  kid: string;
  signature: string;
}

export const renderCheckpoint = (r: CheckpointRow): Checkpoint => ({
  type: 'audit_checkpoint',
  id: r.id,
  version: Number(r.version),
  tenant_id: r.tenant_id,
  seq: Number(r.seq),
  hash: r.hash,
  signed_at: r.signed_at.toISOString(),
  // Only version 2 signs a predecessor: a version-1 checkpoint shows none rather than an unsigned null.
  ...(Number(r.version) >= 2 ? { prev_checkpoint: r.prev_checkpoint } : {}),
  kid: r.kid,
  signature: r.signature,
});

/** The members a checkpoint's signature covers, by version: version 1 predates `version` and `prev_checkpoint`. */
function signedMembers(c: Omit<CheckpointFields, 'kid' | 'signature'>): Record<string, unknown> {
  const base = { tenant_id: c.tenant_id, seq: c.seq, hash: c.hash, signed_at: c.signed_at };
  return (c.version ?? 1) >= 2 ? { version: c.version, ...base, prev_checkpoint: c.prev_checkpoint ?? null } : base;
}

/** The bytes a checkpoint's signature covers: the RFC 8785 canonical JSON of its signed members (after canonicalReady). */
export function signedBytes(c: Omit<CheckpointFields, 'kid' | 'signature'>): string {
  return canonicalJson(signedMembers(c));
}

/**
 * The hash a later checkpoint names it by (`prev_checkpoint`): hex SHA-256 of the RFC 8785 canonical JSON of its
 * signed members, `kid` and `signature` (everything it says but `type` and `id`, which no signature covers).
 */
export function checkpointDigest(c: CheckpointFields): string {
  return createHash('sha256')
    .update(canonicalJson({ ...signedMembers(c), kid: c.kid, signature: c.signature }), 'utf8')
    .digest('hex');
}

/** Whether the checkpoint's signature verifies with the public key `x` (strict: canonical base64url only). */
export const checkpointHolds = (c: CheckpointFields, x: string): boolean => signatureHolds(x, signedBytes(c), c.signature);

/** The stored chain hash of `seq` (GENESIS for 0). */
export async function hashAt(store: EventStore, tenantId: string, seq: number): Promise<string> {
  if (seq === 0) return GENESIS;
  const [event] = await store.readTenant(tenantId, seq - 1, 1, { sealed: true });
  if (!event || event.seq !== seq) throw new Error(`tenant ${tenantId}: no event at seq ${seq}`);
  if (!event.hash) throw chainIncomplete(seq);
  return event.hash;
}

export const chainIncomplete = (seq: number) =>
  new Conflict('audit_chain_incomplete', `The event at seq ${seq} carries no chain hash (it was written with AUDIT_CHAIN=off), so no checkpoint can cover it.`);

/** The workspace's checkpoints in the order they were issued (signed_at, then id), a page at a time (`audit verify`). */
export async function checkpointsPage(db: Db, tenantId: string, after: { signed_at: Date; id: string } | null, limit: number): Promise<CheckpointRow[]> {
  const q = db('audit_checkpoints').where({ tenant_id: tenantId });
  if (after) q.andWhereRaw('(signed_at, id) > (?, ?::uuid)', [after.signed_at, after.id]);
  return q
    .orderBy([{ column: 'signed_at' }, { column: 'id' }])
    .limit(limit)
    .select(CHECKPOINT_COLUMNS);
}

/** The last checkpoint issued for the workspace, as the table holds it. */
export async function latestStored(db: Db, tenantId: string): Promise<Checkpoint | null> {
  const row: CheckpointRow | undefined = await db('audit_checkpoints')
    .where({ tenant_id: tenantId })
    .orderBy([
      { column: 'signed_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first(CHECKPOINT_COLUMNS);
  return row ? renderCheckpoint(row) : null;
}
