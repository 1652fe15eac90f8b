// Opaque cursors (spec 2.7): base64url JSON pinning the cursor version, the
// sort, the direction and the last row's sort key plus id. A cursor is checked
// against the request's sort and order before any query runs.
import { BadRequest } from '../../platform/errors.js';
import { isStorableText } from '../validation.js';

export const CURSOR_VERSION = 1;

export interface Cursor {
  v: number;
  sort: string;
  order: 'asc' | 'desc';
  key: string | number;
  id: string;
}

export const invalidCursor = (why: string) => new BadRequest('invalid_cursor', `starting_after is not a cursor for this list: ${why}.`, 'starting_after');

export function encodeCursor(c: Omit<Cursor, 'v'>): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, ...c }), 'utf8').toString('base64url');
}

export function decodeCursor(raw: string, sort: string, order: 'asc' | 'desc'): Cursor {
  let c: Partial<Cursor>;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new Error('not base64url');
    c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Cursor>;
  } catch {
    throw invalidCursor('it cannot be decoded');
  }
  if (typeof c !== 'object' || c === null || c.v !== CURSOR_VERSION) throw invalidCursor('unknown cursor version');
  if (c.sort !== sort || c.order !== order) throw invalidCursor(`it was minted for sort=${String(c.sort)}&order=${String(c.order)}`);
  if ((typeof c.key !== 'string' && typeof c.key !== 'number') || typeof c.id !== 'string') throw invalidCursor('it is malformed');
  return c as Cursor;
}

/** Longest text sort key or id a cursor may carry. */
export const MAX_TEXT_KEY = 1024;

// YYYY-MM-DDTHH:MM:SS[.ffffff]Z: what toISOString and Postgres (microseconds) give back.
const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$/;

/**
 * True for a strict ISO-8601 UTC instant that Postgres takes as timestamptz and
 * that round-trips: year 1..9999, a real calendar day, a real time of day.
 */
export function isCursorTimestamp(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const m = ISO_UTC.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day); // setUTCFullYear, unlike Date.UTC, keeps years 1..99 as they are
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** A seq or insertion order: a non-negative integer a JS number holds exactly (bigint columns). */
export const isCursorNumber = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** A text sort key or id: bounded, and free of what Postgres cannot store. */
export const isCursorText = (s: unknown): s is string => typeof s === 'string' && s.length <= MAX_TEXT_KEY && isStorableText(s);
