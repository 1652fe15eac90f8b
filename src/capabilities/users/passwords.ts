import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { LaneScheduler } from './hash-lanes.js';

// scrypt with N=2^15, r=8, p=1 (OWASP's floor), 64-byte keys, per-user salt.
const N = 32768;
const R = 8;
const P = 1;
const KEYLEN = 64;
const MAXMEM = 128 * N * R * 2;

// Each derivation holds 32 MiB; a burst of sign-ins must not balloon the process.
// At most two run at once, at most one per account (`lane`: the normalised
// e-mail, see throttle.ts), free slots shared round-robin across accounts; the
// rest wait (see hash-lanes.ts). Work without a lane gets a line of its own.
const MAX_CONCURRENT = 2;
const MAX_WAITING_PER_ACCOUNT = 16;
export const hashScheduler = new LaneScheduler(MAX_CONCURRENT, MAX_WAITING_PER_ACCOUNT);

async function derive(password: string, salt: Buffer, n = N, r = R, p = P, lane?: string): Promise<Buffer> {
  return hashScheduler.run(
    lane,
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

export async function hashPassword(password: string, lane?: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P, lane);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
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
// password nobody knows: no first call pays for making it.
const DECOY = 'scrypt$32768$8$1$jYZIb5xSzmqBKMSg-PBY-g$zm--HfCNFZsgjB6681u_h9hjGrby3PBbddx3UbYaESMByoVSO54MWPgkya5O746-bNZ6f1-zeAfDkCbI4Y89QQ';
export async function burnPasswordCheck(password: string, lane?: string): Promise<false> {
  await verifyPassword(password, DECOY, lane);
  return false;
}
