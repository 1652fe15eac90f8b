// The public keys checkpoints verify with (GET /api/audit/keys): every key that
// ever signed one (recorded beside the checkpoint it signed), and the key this
// process signs with now. A rotated key stays listed, so what it signed still verifies.
import type { Db } from '../../commands/command.js';
import { arrayOf, constant, object, str } from '../../api/schemas.js';
import { loadSigner, publicKeyProblem, type PublicJwk, type Signer } from '../../platform/crypto/signing.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../platform/logger.js';

export const jwkSchema = object(
  {
    kty: constant('OKP'),
    crv: constant('Ed25519'),
    x: str({ description: 'The public key, base64url (RFC 8037).' }),
    kid: str({ description: 'Its RFC 7638 thumbprint: what checkpoints name in `kid`.' }),
    alg: constant('EdDSA'),
    use: constant('sig'),
  },
  { title: 'AuditPublicKey' },
);

export const keySetSchema = object(
  {
    keys: arrayOf(jwkSchema, { description: 'Every key that signed a checkpoint, and the one signing now; oldest first.' }),
    current_kid: str({ description: 'The key that signs checkpoints now.' }),
  },
  { title: 'AuditKeySet', description: 'A JWK Set (RFC 7517) of the Ed25519 keys that sign audit checkpoints.' },
);

/** The signer, loaded once on first use (configured, or generated once in DATA_DIR). */
export function lazySigner(config: Pick<Config, 'auditSigningKey' | 'dataDir'>): () => Promise<Signer> {
  let loading: Promise<Signer> | null = null;
  return () => (loading ??= loadSigner(config.auditSigningKey, config.dataDir).catch((e) => ((loading = null), Promise.reject(e))));
}

/**
 * The keys an auditor is told to trust. A row whose kid is not the RFC 7638 thumbprint of its key (or whose key is
 * not a canonical Ed25519 x) is not served: it was not written by the service, which records only its own keys
 * under their thumbprints, and serving it would vouch for whoever wrote it.
 */
export async function publicKeys(db: Db, signer: Signer, log: Logger): Promise<{ keys: PublicJwk[]; current_kid: string }> {
  const rows: { kid: string; jwk: PublicJwk }[] = await db('audit_signing_keys')
    .orderBy([{ column: 'created_at' }, { column: 'kid' }])
    .select('kid', 'jwk');
  const keys: PublicJwk[] = [];
  for (const r of rows) {
    const problem = publicKeyProblem({ ...r.jwk, kid: r.kid }) ?? (r.jwk.kid === r.kid ? null : `its JWK names another kid (${String(r.jwk.kid)})`);
    if (problem) log.error({ kid: r.kid }, `audit_signing_keys: the row of kid ${r.kid} is not served: ${problem}`);
    else keys.push({ kty: 'OKP', crv: 'Ed25519', x: r.jwk.x, kid: r.kid, alg: 'EdDSA', use: 'sig' });
  }
  if (!keys.some((k) => k.kid === signer.kid)) keys.push(signer.publicJwk);
  return { keys, current_kid: signer.kid };
}

/** Every public key recorded, by kid, with what is wrong with its row (the database verifier's keys). */
export async function recordedKeys(db: Db): Promise<Map<string, { x: string; problem: string | null }>> {
  const rows: { kid: string; jwk: PublicJwk }[] = await db('audit_signing_keys').select('kid', 'jwk');
  return new Map(rows.map((r) => [r.kid, { x: r.jwk.x, problem: publicKeyProblem({ ...r.jwk, kid: r.kid }) }]));
}
