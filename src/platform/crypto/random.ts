// Cryptographically random bytes drawn from a pool refilled 4 KiB at a time.
// Every seal takes a fresh 12-byte IV and every new subject a 32-byte key: a
// few calls per write, and each randomBytes() call is a trip into OpenSSL
// (and, on a VM, often the kernel) that costs more than the bytes. The pool is
// filled by the same CSPRNG; no byte is handed out twice, and each caller gets
// its own copy.
import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let offset = POOL_SIZE;

export function randomBytesPooled(n: number): Buffer {
  if (n > POOL_SIZE / 4) return randomFillSync(Buffer.allocUnsafeSlow(n));
  if (offset + n > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  // A buffer of its own, not a slice of Node's shared 8 KiB slab: a data key is kept (Forgettable's cache of
  // recent keys), and a kept slice would keep its whole slab alive.
  const out = Buffer.allocUnsafeSlow(n);
  pool.copy(out, 0, offset, offset + n);
  // Wiped as it is handed out: the pool never keeps a copy of a key it gave away.
  pool.fill(0, offset, offset + n);
  offset += n;
  return out;
}
