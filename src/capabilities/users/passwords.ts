import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { LaneScheduler } from './hash-lanes.js';

// scrypt with N=2^cost (cost 15 by default: OWASP's floor), r=8, p=1, 64-byte keys, per-user salt. A hash
// names its own parameters, so verifying never depends on the configured cost, and a changed cost applies to
// passwords set from then on. PASSWORD_HASH_COST goes below 15 only for test suites (as Rails and Devise
// lower their bcrypt cost in tests): the suite derives hundreds of hashes, each 0.1 s of CPU at 15.
export const DEFAULT_HASH_COST = 15;
const R = 8;
const P = 1;
const KEYLEN = 64;
const maxmem = (n: number, r: number) => 128 * n * r * 2;

// Each derivation holds 32 MiB; a burst of sign-ins must not balloon the process.
// At most two run at once, at most one per account (`lane`: the normalised
// e-mail, see throttle.ts), free slots shared round-robin across accounts; the
// rest wait (see hash-lanes.ts). Work without a lane gets a line of its own.
const MAX_CONCURRENT = 2;
const MAX_WAITING_PER_ACCOUNT = 16;
export const hashScheduler = new LaneScheduler(MAX_CONCURRENT, MAX_WAITING_PER_ACCOUNT);

async function derive(password: string, salt: Buffer, n: number, r: number, p: number, lane?: string): Promise<Buffer> {
  return hashScheduler.run(
    lane,
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: maxmem(n, r) }, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

export async function hashPassword(password: string, lane?: string, cost = DEFAULT_HASH_COST): Promise<string> {
  const salt = randomBytes(16);
  const n = 2 ** cost;
  const key = await derive(password, salt, n, R, P, lane);
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string, lane?: string): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p), lane);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Verifying against this when the e-mail is unknown keeps both failure paths equally slow
// (the same parameters, one derivation, in the account's lane). A fixed hash of a random
// password nobody knows: no first call pays for making it. Another cost gets a decoy of its
// own, made once.
const DECOY = 'scrypt$32768$8$1$jYZIb5xSzmqBKMSg-PBY-g$zm--HfCNFZsgjB6681u_h9hjGrby3PBbddx3UbYaESMByoVSO54MWPgkya5O746-bNZ6f1-zeAfDkCbI4Y89QQ';
const decoys = new Map<number, Promise<string>>([[DEFAULT_HASH_COST, Promise.resolve(DECOY)]]);
export async function burnPasswordCheck(password: string, lane?: string, cost = DEFAULT_HASH_COST): Promise<false> {
  let decoy = decoys.get(cost);
  if (!decoy) decoys.set(cost, (decoy = hashPassword(randomBytes(24).toString('base64url'), undefined, cost)));
  await verifyPassword(password, await decoy, lane);
  return false;
}
