// Spec 3.1 and 8: 8 attempts in all; after the n-th failure the next attempt
// waits base * 2^(n-1) (30, 60, 120, ... 1920 s with the default base), and
// the 8th failure makes the delivery dead. With the 30 s base the whole window
// from the first attempt to the last is 30 + 60 + ... + 1920 = 3810 s, about 63.5 minutes.
export const MAX_ATTEMPTS = 8;

export type Outcome = { state: 'delivered' } | { state: 'pending'; nextAttemptAt: Date } | { state: 'dead' };

/** What a finished attempt leads to; `attempts` counts the attempt just made. */
export function afterAttempt(ok: boolean, attempts: number, finishedAt: Date, baseSeconds: number, permanent = false): Outcome {
  if (ok) return { state: 'delivered' };
  if (attempts >= MAX_ATTEMPTS || permanent) return { state: 'dead' };
  return { state: 'pending', nextAttemptAt: new Date(finishedAt.getTime() + baseSeconds * 1000 * 2 ** (attempts - 1)) };
}

/** Seconds from the first attempt to the last when every attempt fails. */
export function retryWindowSeconds(baseSeconds: number): number {
  let total = 0;
  for (let n = 1; n < MAX_ATTEMPTS; n++) total += baseSeconds * 2 ** (n - 1);
  return total;
}
