// Postgres prints a jsonb value with a space after each ':' and ',' outside
// strings, and otherwise as JSON.stringify would print what JSON.parse makes of
// it: keys in jsonb's order (which JSON.parse keeps, but for keys that look like
// array indices, which JavaScript puts first), strings escaped the same way
// (\b \f \n \r \t \" \\ and \u00xx for other control characters; jsonb holds
// no lone surrogates), numbers as they were stored. So removing those spaces
// gives JSON.stringify's text of the value, byte for byte, without building the
// value: except where a key looks like an index, or a number is not printed as
// JavaScript prints it (1e-7 stored, 0.0000001 printed). Those are seen, and
// answered null: the caller parses and prints that value itself.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const COLON = 0x3a;

const isNumberStart = (c: number) => c === 0x2d || (c >= 0x30 && c <= 0x39);
const isNumberChar = (c: number) => isNumberStart(c) || c === 0x2e || c === 0x2b || c === 0x45 || c === 0x65;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * JSON.stringify(JSON.parse(text)) for `text` as Postgres prints a jsonb value, or null where removing its
 * separators' spaces would not give that. One pass over the text, linear in its length.
 */
export function compactJsonb(text: string): string | null {
  let out = '';
  let from = 0;
  const n = text.length;
  for (let i = 0; i < n;) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: one not preceded by an odd number of backslashes.
      let j = i + 1;
      for (;;) {
        j = text.indexOf('"', j);
        if (j < 0) return null;
        let k = j - 1;
        while (text.charCodeAt(k) === BACKSLASH) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j++;
      }
      // A key that looks like an array index: JavaScript's objects put those first, jsonb by length and bytes.
      if (isDigit(text.charCodeAt(i + 1)) && text.charCodeAt(j + 1) === COLON) return null;
      i = j + 1;
    } else if (c === SPACE) {
      out += text.slice(from, i);
      from = ++i;
    } else if (isNumberStart(c)) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j++;
      const token = text.slice(i, j);
      if (String(Number(token)) !== token) return null;
      i = j;
    } else i++;
  }
  return from === 0 ? text : out + text.slice(from);
}
