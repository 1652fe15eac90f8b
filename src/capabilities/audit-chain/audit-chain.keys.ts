// The public keys checkpoints verify with (GET /api/audit/keys): every key that
// ever signed one (recorded beside the checkpoint it signed), and the key this
// process signs with now. A rotated key stays listed, so what it signed still verifies.
import type { Db } from '../../commands/command.js';
import { arrayOf, constant, object, str } from '../../api/schemas.js';
import { loadSigner, type PublicJwk, type Signer } from '../../platform/crypto/signing.js';
import type { Config } from '../../config.js';

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

export async function publicKeys(db: Db, signer: Signer): Promise<{ keys: PublicJwk[]; current_kid: string }> {
  const rows: { kid: string; jwk: PublicJwk }[] = await db('audit_signing_keys')
    .orderBy([{ column: 'created_at' }, { column: 'kid' }])
    .select('kid', 'jwk');
  const keys = rows.map((r) => r.jwk);
  if (!keys.some((k) => k.kid === signer.kid)) keys.push(signer.publicJwk);
  return { keys, current_kid: signer.kid };
}

/** Every public key recorded, by kid (the database verifier's keys). */
export async function recordedKeys(db: Db): Promise<Map<string, PublicJwk>> {
  const rows: { kid: string; jwk: PublicJwk }[] = await db('audit_signing_keys').select('kid', 'jwk');
  return new Map(rows.map((r) => [r.kid, r.jwk]));
}
