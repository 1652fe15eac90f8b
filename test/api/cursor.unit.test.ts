// Pagination cursors: opaque, URL-safe, and only valid for the sort and order they were minted for.
import { expect } from 'chai';
import { decodeCursor, encodeCursor } from '../../src/api/pagination/cursor.js';

describe('cursors (unit)', () => {
  it('round-trips and pins sort and order', () => {
    const c = encodeCursor({ sort: 'created_at', order: 'asc', key: '2026-01-01T00:00:00.000Z', id: 'x' });
    expect(c).to.match(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c, 'created_at', 'asc')).to.include({ v: 1, key: '2026-01-01T00:00:00.000Z', id: 'x' });
    expect(() => decodeCursor(c, 'created_at', 'desc')).to.throw(/minted for/);
    expect(() => decodeCursor(c, 'updated_at', 'asc')).to.throw(/minted for/);
    expect(() => decodeCursor('!!', 'created_at', 'asc')).to.throw(/cannot be decoded/);
  });
});
