// The placeholders a saved reply's body may hold, parsed and rendered by hand:
// no template engine, so nothing but these five placeholders is ever
// interpreted, and values are inserted exactly as they are (no HTML escaping,
// no re-scanning: a contact named "{{member.name}}" renders as that text).
//
//   {{contact.name}}  {{contact.email}}  {{contact.custom_attributes.X}}
//   {{conversation.id}}  {{member.name}}
//   each optionally  {{contact.name | fallback: "there"}}
//
// What counts as a placeholder: a `{{` followed (after optional spaces) by a
// letter or `_`. It must then be one of the five, well formed (an optional
// `| fallback: "…"`, where `\"` and `\\` are the only escapes), and closed by
// `}}`; otherwise the body is refused (400, field `body`). Any other `{{`
// (`{{#if`, `{{ }}`, `{{{`, `{{"x"}}`) is plain text and is sent as written.
import { BadRequest } from '../../platform/errors.js';

export type Segment = { text: string } | { variable: string; fallback: string | null };

/** A custom attribute key, as contacts accept them. */
const ATTRIBUTE_KEY = /^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,99}$/;
const FIXED = new Set(['contact.name', 'contact.email', 'conversation.id', 'member.name']);
const ATTRIBUTES = 'contact.custom_attributes.';
/** Characters a placeholder's name is read over (custom attribute keys may hold spaces, dots and dashes). */
const NAME_CHAR = /[A-Za-z0-9_ .-]/;

export const KNOWN_PLACEHOLDERS = ['contact.name', 'contact.email', 'contact.custom_attributes.X', 'conversation.id', 'member.name'] as const;

export class TemplateError extends BadRequest {
  constructor(code: 'unknown_placeholder' | 'invalid_placeholder', message: string) {
    super(code, message, 'body');
  }
}

function isKnown(name: string): boolean {
  if (FIXED.has(name)) return true;
  return name.startsWith(ATTRIBUTES) && ATTRIBUTE_KEY.test(name.slice(ATTRIBUTES.length));
}

const snippet = (body: string, at: number) => JSON.stringify(body.slice(at, at + 40) + (body.length > at + 40 ? '…' : ''));

/** A fallback's double-quoted string, from just after its opening quote: its value, and where it ends (after the closing quote). */
function quotedFallback(body: string, from: number, bad: (why: string) => never): [string, number] {
  let value = '';
  let j = from;
  for (;;) {
    const c = body[j];
    if (c === undefined) bad("the fallback's string is not closed");
    if (c === '"') return [value, j + 1];
    if (c === '\\') {
      const next = body[j + 1];
      if (next !== '"' && next !== '\\') bad('only \\" and \\\\ may be escaped in a fallback');
      value += next;
      j += 2;
      continue;
    }
    value += c;
    j++;
  }
}

/** Splits a body into text and placeholders; throws TemplateError (400, field `body`) naming the first bad placeholder. */
export function parseTemplate(body: string): Segment[] {
  const out: Segment[] = [];
  let text = '';
  let i = 0;
  const ws = (j: number) => {
    while (j < body.length && /\s/.test(body[j]!)) j++;
    return j;
  };
  while (i < body.length) {
    const open = body.indexOf('{{', i);
    if (open < 0) break;
    let j = ws(open + 2);
    if (!/[A-Za-z_]/.test(body[j] ?? '')) {
      // Not a placeholder: the first brace is text, and scanning goes on from the second ({{{x}} holds {{x}}).
      text += body.slice(i, open + 1);
      i = open + 1;
      continue;
    }
    const bad = (why: string): never => {
      throw new TemplateError(
        'invalid_placeholder',
        `The placeholder at character ${open} (${snippet(body, open)}) is malformed: ${why}. Write {{name}} or {{name | fallback: "text"}}.`,
      );
    };
    const start = j;
    while (j < body.length && NAME_CHAR.test(body[j]!)) j++;
    const name = body.slice(start, j).trim();
    if (!isKnown(name)) {
      throw new TemplateError(
        'unknown_placeholder',
        `Unknown placeholder {{${name}}} at character ${open}; known: ${KNOWN_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}.`,
      );
    }
    j = ws(j);
    let fallback: string | null = null;
    if (body[j] === '|') {
      j = ws(j + 1);
      if (!body.startsWith('fallback', j)) bad('after "|" only `fallback: "…"` may follow');
      j = ws(j + 'fallback'.length);
      if (body[j] !== ':') bad('`fallback` must be followed by ":"');
      j = ws(j + 1);
      if (body[j] !== '"') bad('the fallback must be a double-quoted string');
      [fallback, j] = quotedFallback(body, j + 1, bad);
      j = ws(j);
    }
    if (!body.startsWith('}}', j)) bad('it is not closed by "}}"');
    text += body.slice(i, open);
    if (text) out.push({ text });
    text = '';
    out.push({ variable: name, fallback });
    i = j + 2;
  }
  text += body.slice(i);
  if (text) out.push({ text });
  return out;
}

/** A placeholder's value: null or undefined (or an empty string) when unknown. */
export type Lookup = (variable: string) => string | number | boolean | null | undefined;

/**
 * Renders a parsed body in one pass. A value that is missing (null, absent or
 * empty) takes its fallback; without one it renders as "" and its name is
 * listed, once, in `undefined_variables` (in order of first use).
 */
export function renderTemplate(segments: readonly Segment[], lookup: Lookup): { body: string; undefined_variables: string[] } {
  let body = '';
  const missing: string[] = [];
  for (const s of segments) {
    if ('text' in s) {
      body += s.text;
      continue;
    }
    const v = lookup(s.variable);
    if (v !== null && v !== undefined && v !== '') body += String(v);
    else if (s.fallback !== null) body += s.fallback;
    else if (!missing.includes(s.variable)) missing.push(s.variable);
  }
  return { body, undefined_variables: missing };
}
