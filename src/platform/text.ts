// Cutting and cleaning untrusted text so Postgres can hold it. Postgres refuses a
// NUL and an unpaired UTF-16 surrogate (jsonb's \uD800 escape, and text columns),
// so a cut that splits a pair, or such a character in mail or a relay's answer,
// would make a write fail for good (a 500, or mail retried until it bounces).
// Pure: the parser threads, the deciders and the routes use the same cuts.

/** Text Postgres can store: NUL removed, lone surrogates replaced. */
export const storable = (s: string): string =>
  s.replace(/\u0000/g, '').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/**
 * The first `max` UTF-16 units of `s`, one fewer when the cut would split a surrogate pair: a lone half is text
 * Postgres refuses, and the message would never be filed (the MTA retries until it bounces).
 */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  const code = s.charCodeAt(max - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * `encodeURIComponent(s)` cut to at most `max` characters without splitting a character's escape (a `%E2%8`
 * left over is not UTF-8 a browser can decode): whole code points only.
 */
export function encodeUriComponentCut(s: string, max: number): string {
  let out = '';
  // storable first: encodeURIComponent throws on a lone surrogate.
  for (const ch of storable(s)) {
    const enc = encodeURIComponent(ch);
    if (out.length + enc.length > max) break;
    out += enc;
  }
  return out;
}
