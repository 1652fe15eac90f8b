import type { Db } from '../../commands/command.js';
import { type ListSpec, byCreatedAt } from '../../api/pagination/list.js';
import { isUuid } from '../../platform/ids.js';
import { arrayOf, constant, dateTime, extend, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { SCOPES, type Scope } from '../../api/scopes.js';
import type { KeyView } from './keys.decider.js';
import type { API_KEYS } from './keys.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `api_keys` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type KeyRow = RowOf<typeof API_KEYS> & {
  /** known scopes only: minting refuses any beyond the member's role (decideCreateKey) */
  scopes: Scope[];
  status: 'active' | 'revoked';
};

export const keyList: ListSpec = byCreatedAt('api_key', 'asc');

export const renderKey = (k: KeyRow): ApiKey => ({
  type: 'api_key',
  id: k.id,
  name: k.name,
  scopes: k.scopes,
  member_id: k.member_id,
  status: k.status,
  created_at: k.created_at.toISOString(),
  rotated_at: k.rotated_at?.toISOString() ?? null,
  revoked_at: k.revoked_at?.toISOString() ?? null,
});

export const keysOf = (db: Db, tenantId: string) => db('api_keys').where({ tenant_id: tenantId });

export async function findKey(db: Db, tenantId: string, id: string): Promise<KeyRow | undefined> {
  return isUuid(id) ? keysOf(db, tenantId).andWhere({ id }).first() : undefined;
}

export const keyView = (k: KeyRow | undefined): KeyView | null => (k ? { id: k.id, memberId: k.member_id, status: k.status } : null);

/** The active key whose secret hashes to `hash`, with the stored hash for the constant-time check. */
export async function findActiveKeyByHash(db: Db, tenantId: string, hash: string): Promise<(KeyRow & { secret_hash: string }) | undefined> {
  return db('api_key_secrets as s')
    .join('api_keys as k', function () {
      this.on('k.tenant_id', 's.tenant_id').andOn('k.id', 's.key_id');
    })
    .where({ 's.secret_hash': hash, 's.tenant_id': tenantId, 'k.status': 'active' })
    .first('k.*', 's.secret_hash');
}

export const apiKeySchema = object(
  {
    type: constant('api_key'),
    id: uuid,
    name: str(),
    scopes: arrayOf(oneOfStrings(SCOPES)),
    member_id: uuid,
    status: oneOfStrings(['active', 'revoked']),
    created_at: dateTime,
    rotated_at: nullable(dateTime),
    revoked_at: nullable(dateTime),
  },
  { title: 'ApiKey' },
);
export type ApiKey = Static<typeof apiKeySchema>;

/** Minting and rotation: the key with its secret, shown this once. */
export const apiKeyWithSecretSchema = extend(
  apiKeySchema,
  { secret: str({ pattern: '^svc_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$', description: 'Shown this once; only a hash is kept.' }) },
  { title: 'ApiKeyWithSecret' },
);
