// Opaque cursors (spec 2.7): base64url JSON pinning the cursor version, the
// sort, the direction and the last row's sort key plus id. A cursor is checked
// against the request's sort and order before any query runs.
import { BadRequest } from '../../platform/errors.js';

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
