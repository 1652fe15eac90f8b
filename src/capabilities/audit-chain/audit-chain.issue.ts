// Issuing a checkpoint: sign only what extends what was signed (docs/audit.md,
// "Signed checkpoints"). Under the workspace's checkpoint lock, the service
// takes the last checkpoint it issued (from the witness when there is one, else
// from the table), checks that it is its own (its signature verifies with the
// service's key, or with a key it signed with before a rotation), recomputes
// the chain from it to the seq asked for (audit-chain.extension.ts), and only
// then signs a version-2 checkpoint naming it as predecessor. When the log does
// not extend it, nothing is signed: 409 audit_chain_broken naming the first seq
// that fails, and the alarm (a log line and a metric, once per workspace).
import type { Db } from '../../commands/command.js';
import type { EventStore } from '../../eventstore/store.port.js';
import { canonicalReady, GENESIS } from '../../platform/crypto/chain.js';
import type { Signer } from '../../platform/crypto/signing.js';
import { Conflict } from '../../platform/errors.js';
import type { AuditChainObserver, CoreDeps } from '../capability.js';
import { chainAlarm } from './audit-chain.alarm.js';
import {
  CHECKPOINT_VERSION,
  checkpointDigest,
  checkpointHolds,
  latestStored,
  renderCheckpoint,
  signedBytes,
  type Checkpoint,
  type CheckpointRow,
} from './audit-chain.checkpoints.js';
import { extension } from './audit-chain.extension.js';
import { fileWitness, type Witness } from './audit-chain.witness.js';

export interface IssueDeps {
  db: Db;
  store: EventStore;
  signer: Signer;
  /** public keys (by kid) the service signed with before, whose checkpoints it takes as its own (AUDIT_TRUSTED_KEYS) */
  trustedKeys: ReadonlyMap<string, string>;
  /** where checkpoints are also kept, out of the database's reach (AUDIT_WITNESS_DIR); null: the table only */
  witness: Witness | null;
  alarm: AuditChainObserver;
}

export const chainBroken = (seq: number, reason: string) =>
  new Conflict(
    'audit_chain_broken',
    `The log does not extend the last checkpoint the service signed: first failing seq ${seq}: ${reason}. No checkpoint is signed until it does (docs/audit.md).`,
  );

/**
 * A signed checkpoint of the workspace's chain at `seq`. When the last checkpoint issued is of that same seq, by
 * the same key, and the log still holds its hash, that one is answered again: it says the same thing, and a
 * client polling an idle workspace does not grow the list.
 */
export async function issueCheckpoint(deps: IssueDeps, c: { tenantId: string; id: string; seq: number; now: Date }): Promise<Checkpoint> {
  const { db, store, signer, witness, alarm } = deps;
  await canonicalReady;
  const refuse = (seq: number, reason: string): never => {
    alarm.broken(c.tenantId, seq, reason);
    throw chainBroken(seq, reason);
  };
  // One issuer at a time per workspace, across processes: each checkpoint names the one before it.
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`audit-checkpoint:${c.tenantId}`]);
    const prev = (witness ? await witness.latest(c.tenantId) : null) ?? (await latestStored(trx, c.tenantId));
    if (prev) {
      const x = prev.kid === signer.kid ? signer.publicJwk.x : deps.trustedKeys.get(prev.kid);
      if (x === undefined) {
        refuse(
          prev.seq,
          `the last checkpoint (${prev.id}, seq ${prev.seq}) names a key (${prev.kid}) that is neither this service's nor among AUDIT_TRUSTED_KEYS`,
        );
      } else if (prev.tenant_id !== c.tenantId || !checkpointHolds(prev, x)) {
        refuse(prev.seq, `the last checkpoint (${prev.id}, seq ${prev.seq}) does not verify with the key it names: the service did not issue it`);
      }
    }
    const signed = prev ?? { seq: 0, hash: GENESIS };
    const ext = await extension(store, c.tenantId, signed, c.seq);
    if (!ext.holds) return refuse(ext.seq, ext.reason);
    alarm.held(c.tenantId);
    if (prev && prev.seq === c.seq && prev.kid === signer.kid) return prev;

    // Strictly later than its predecessor, so that the table's order (signed_at, id) is the order of the chain.
    const prevAt = prev ? Date.parse(prev.signed_at) : -Infinity;
    const signedAt = new Date(Math.max(c.now.getTime(), prevAt + 1)).toISOString();
    const statement = {
      version: CHECKPOINT_VERSION,
      tenant_id: c.tenantId,
      seq: c.seq,
      hash: ext.hash,
      signed_at: signedAt,
      prev_checkpoint: prev ? checkpointDigest(prev) : null,
    };
    const row: CheckpointRow = { ...statement, id: c.id, signed_at: new Date(signedAt), kid: signer.kid, signature: signer.sign(signedBytes(statement)) };
    await trx.raw(
      `WITH k AS (INSERT INTO audit_signing_keys (kid, jwk) VALUES (?, ?::jsonb) ON CONFLICT (kid) DO NOTHING)
       INSERT INTO audit_checkpoints (tenant_id, id, version, seq, hash, signed_at, prev_checkpoint, kid, signature) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        signer.kid,
        JSON.stringify(signer.publicJwk),
        row.tenant_id,
        row.id,
        row.version,
        row.seq,
        row.hash,
        row.signed_at,
        row.prev_checkpoint,
        row.kid,
        row.signature,
      ],
    );
    const checkpoint = renderCheckpoint(row);
    // On disk before the row commits: the witness holds every checkpoint the table does (a failed append rolls the row back).
    await witness?.append(checkpoint);
    return checkpoint;
  });
}

export interface Issuer {
  issue(c: { tenantId: string; id: string; seq: number; now: Date }): Promise<Checkpoint>;
}

/** The issuer the routes and the worker share the configuration of: the service's key, its trusted keys, the witness and the alarm. */
export function issuerOf(deps: Pick<CoreDeps, 'db' | 'store' | 'config' | 'log' | 'auditChain'>, signer: () => Promise<Signer>): Issuer {
  const witness = deps.config.auditWitnessDir ? fileWitness(deps.config.auditWitnessDir) : null;
  const alarm = deps.auditChain ?? chainAlarm(deps.log);
  return {
    issue: async (c) =>
      issueCheckpoint({ db: deps.db, store: deps.store, signer: await signer(), trustedKeys: deps.config.auditTrustedKeys, witness, alarm }, c),
  };
}
