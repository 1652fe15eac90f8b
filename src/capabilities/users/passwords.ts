import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt with N=2^15, r=8, p=1 (OWASP's floor), 64-byte keys, per-user salt.
const N = 32768;
const R = 8;
const P = 1;
const KEYLEN = 64;
const MAXMEM = 128 * N * R * 2;

// Each derivation holds 32 MiB; a burst of sign-ins must not balloon the process.
// At most two run at once, the rest queue.
const MAX_CONCURRENT = 2;
let running = 0;
const queue: (() => void)[] = [];

async function derive(password: string, salt: Buffer, n = N, r = R, p = P): Promise<Buffer> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((go) => queue.push(go));
  running++;
  try {
    return await new Promise<Buffer>((resolve, reject) =>
      scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key))),
    );
  } finally {
    running--;
    queue.shift()?.();
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Verifying against this when the e-mail is unknown keeps both failure paths equally slow.
let decoy: Promise<string> | null = null;
export async function burnPasswordCheck(password: string): Promise<false> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await decoy);
  return false;
}
