import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';
import { encodeCursor } from '../../src/api/pagination/cursor.js';

describe('cursor pagination (conversations)', function () {
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let key: string;
  let channelId: string;
  let contactId: string;

  before(async function () {
    this.timeout(240_000);
    clock = new ManualClock(new Date());
    t = await startTestService('pagination', { clock });
    owner = await newWorkspace(t);
    channelId = (await createChannel(t, owner)).id;
    key = (await mintKey(t, owner, ['conversations:read', 'conversations:write', 'members:read', 'api_keys:create'])).secret;
    const first = await t.client.post('/api/conversations', { channel_id: channelId, body: 'c0', contact: { email: 'p@example.com' } }, { key });
    contactId = first.body.contact_id;
    // 1,000 conversations; the clock ticks so created_at differs, with some ties on purpose.
    for (let i = 1; i < 1000; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, 1000 - i) }, (_, k) =>
          t.client.post('/api/conversations', { channel_id: channelId, body: `c${i + k}`, contact_id: contactId }, { key }),
        ),
      );
      clock.advance(1000);
    }
  });
  after(async () => t.close());

  it('walks 1,000 conversations at per_page=150 seeing each id exactly once while new ones are inserted between pages', async () => {
    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const qs: string = `per_page=150&sort=created_at&order=asc${next ? `&starting_after=${next}` : ''}`;
      const r = await t.client.get(`/api/conversations?${qs}`, { key });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.type).to.equal('list');
      expect(r.body.pages).to.include({ type: 'pages', per_page: 150 });
      for (const c of r.body.data) {
        expect(c.type).to.equal('conversation');
        seen.push(c.id);
      }
      next = r.body.pages.next?.starting_after ?? null;
      // Inserted between pages: newer than everything, so they arrive at the end, once.
      await t.client.post('/api/conversations', { channel_id: channelId, body: 'between pages', contact_id: contactId }, { key });
      clock.advance(1000);
      pages++;
    } while (next && pages < 50);
    expect(new Set(seen).size).to.equal(seen.length);
    const all = await t.testDb.db('conversations').where({ tenant_id: owner.workspaceId }).pluck('id');
    const initial = new Set(all);
    expect(seen.length).to.be.at.least(1000);
    for (const id of seen) expect(initial.has(id)).to.equal(true);
    expect(pages).to.be.at.least(7);
  });

  it('walks descending by updated_at too, ending with pages.next null', async () => {
    let next: string | null = null;
    const seen = new Set<string>();
    let last: string | null = null;
    for (let i = 0; i < 20; i++) {
      const r = await t.client.get(`/api/conversations?per_page=150&sort=updated_at&order=desc${next ? `&starting_after=${next}` : ''}`, { key });
      for (const c of r.body.data) {
        if (last) expect(c.updated_at <= last).to.equal(true);
        last = c.updated_at;
        seen.add(c.id);
      }
      next = r.body.pages.next?.starting_after ?? null;
      if (!next) break;
    }
    expect(next).to.equal(null);
    expect(seen.size).to.be.at.least(1000);
  });

  it('answers a cursor reused with another order 400 invalid_cursor before any query runs', async () => {
    const first = await t.client.get('/api/conversations?per_page=5&sort=created_at&order=asc', { key });
    const cursor = first.body.pages.next.starting_after;
    const queries: string[] = [];
    const listen = (q: { sql: string }) => queries.push(q.sql);
    // Authentication runs one query; count only what follows it.
    await t.client.get('/api/me', { key });
    t.service.deps.db.on('query', listen);
    let r;
    try {
      r = await t.client.get(`/api/conversations?per_page=5&sort=created_at&order=desc&starting_after=${cursor}`, { key });
    } finally {
      t.service.deps.db.removeListener('query', listen);
    }
    expect(r.status).to.equal(400);
    expect(r.body.errors[0]).to.include({ code: 'invalid_cursor', field: 'starting_after' });
    expect(queries.filter((q) => q.includes('conversations'))).to.deep.equal([]);
    const otherSort = await t.client.get(`/api/conversations?per_page=5&sort=updated_at&order=asc&starting_after=${cursor}`, { key });
    expect(otherSort.body.errors[0].code).to.equal('invalid_cursor');
  });

  it('answers garbled and forged cursors 400 invalid_cursor', async () => {
    for (const c of [
      '%%%',
      'bm90LWpzb24',
      encodeCursor({ sort: 'created_at', order: 'asc', key: 'yesterday', id: 'x' }),
      Buffer.from('{"v":99}').toString('base64url'),
    ]) {
      const r = await t.client.get(`/api/conversations?sort=created_at&order=asc&starting_after=${encodeURIComponent(c)}`, { key });
      expect(r.status, c).to.equal(400);
      expect(r.body.errors[0].code).to.equal('invalid_cursor');
    }
  });

  it('answers per_page=0 and per_page=151 400 and defaults to 20', async () => {
    for (const n of [0, 151, -1]) {
      const r = await t.client.get(`/api/conversations?per_page=${n}`, { key });
      expect(r.status).to.equal(400);
      expect(r.body.errors[0]).to.include({ field: 'per_page' });
    }
    const d = await t.client.get('/api/conversations', { key });
    expect(d.body.pages.per_page).to.equal(20);
    expect(d.body.data).to.have.length(20);
  });

  it('uses the same envelope on the other list routes (members, keys, channels)', async () => {
    for (const path of ['/api/members', '/api/keys']) {
      const r = await t.client.get(`${path}?per_page=1`, { key });
      expect(r.status, path).to.equal(200);
      expect(r.body.type).to.equal('list');
      expect(r.body.pages).to.include({ type: 'pages', per_page: 1 });
      expect(r.body.data[0]).to.have.property('id');
      expect(r.body.data[0]).to.have.property('type');
    }
    const ch = await t.client.get('/api/channels?per_page=1', { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(ch.body.pages.next).to.equal(null);
    expect(ch.body.data[0].type).to.equal('channel');
  });
});
