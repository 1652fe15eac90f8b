// Notes on a contact, through the API: written, listed newest first in the
// shared envelope, read, deleted; refused with coded 4xx for what is not
// allowed; and gone with the contact when the contact is erased, from every
// table of the database (the log's copy sealed under a key that no longer is).
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { ManualClock } from '../../src/platform/clock.js';
import { capabilityFixture } from '../support/capability-fixture.js';
import { dumpDatabase, findMarkers } from '../support/database-dump.js';
import { mintKey, newWorkspace } from '../support/service.js';

const marker = (what: string) => `${what}${randomBytes(6).toString('hex')}`;

describe('contact notes', function () {
  this.timeout(120_000);
  const fx = capabilityFixture('contact-notes', { scopes: ['contacts:read', 'contacts:write', 'contacts:delete', 'events:read'] });
  const newContact = async (email = `${marker('c')}@example.com`) => (await fx.ok(fx.t.client.post('/api/contacts', { email }, fx.as()), 201)).id as string;
  const write = (contactId: string, body: unknown, opts: Record<string, unknown> = {}) =>
    fx.t.client.post(`/api/contacts/${contactId}/notes`, body, { ...fx.as(), ...opts });

  it("writes a note (the author is the key), gets it, lists the contact's notes newest first, deletes one: each change an event on the contact", async () => {
    const contactId = await newContact();
    const first = await fx.spec({
      when: () => write(contactId, { body: 'Prefers e-mail.' }),
      then: {
        status: 201,
        body: { type: 'contact_note', contact_id: contactId, body: 'Prefers e-mail.', author: { type: 'api_key', id: fx.keyId } },
        events: ['contact_note.created'],
      },
    });
    // The service's clock is the test's (a manual one): a minute later, so the newest is known.
    (fx.t.clock as ManualClock).advance(60_000);
    const second = await fx.ok(write(contactId, { body: 'VIP since the renewal.' }), 201);
    expect(await fx.ok(fx.t.client.get(`/api/contacts/${contactId}/notes/${first.id}`, fx.as()))).to.deep.equal(first);

    const page1 = await fx.ok(fx.t.client.get(`/api/contacts/${contactId}/notes?per_page=1`, fx.as()));
    expect(page1.data.map((n: { id: string }) => n.id)).to.deep.equal([second.id]);
    const after = page1.pages.next.starting_after;
    const page2 = await fx.ok(fx.t.client.get(`/api/contacts/${contactId}/notes?per_page=1&starting_after=${encodeURIComponent(after)}`, fx.as()));
    expect(page2.data.map((n: { id: string }) => n.id)).to.deep.equal([first.id]);
    expect(page2.pages.next).to.equal(null);

    await fx.spec({
      when: () => fx.t.client.delete(`/api/contacts/${contactId}/notes/${first.id}`, fx.as()),
      then: { status: 200, body: { type: 'contact_note', id: first.id, deleted: true }, events: ['contact_note.deleted'] },
    });
    const left = await fx.ok(fx.t.client.get(`/api/contacts/${contactId}/notes`, fx.as()));
    expect(left.data.map((n: { id: string }) => n.id)).to.deep.equal([second.id]);
    // In the contact's history (the notes' aggregate is the contact).
    const history = await fx.ok(fx.t.client.get(`/api/contacts/${contactId}/history`, fx.as()));
    expect(history.data.map((e: { type: string }) => e.type)).to.include.members(['contact_note.created', 'contact_note.deleted']);
  });

  it('refuses what is not a note with coded 4xx and writes nothing: bad bodies, unknown contacts and notes, missing scopes, another workspace', async () => {
    const contactId = await newContact();
    for (const body of [{}, { body: '' }, { body: '   ' }, { body: 'x'.repeat(20_001) }, { body: 'ok', extra: 1 }, { body: 42 }, []]) {
      const r = await write(contactId, body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.errors[0].code).to.be.a('string');
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await write(unknown, { body: 'x' })).status).to.equal(404);
    expect((await write('not-a-uuid', { body: 'x' })).status).to.equal(404);
    expect((await fx.t.client.get(`/api/contacts/${unknown}/notes`, fx.as())).status).to.equal(404);
    expect((await fx.t.client.get(`/api/contacts/${contactId}/notes/${unknown}`, fx.as())).status).to.equal(404);
    const deleted = await fx.t.client.delete(`/api/contacts/${contactId}/notes/${unknown}`, fx.as());
    expect(deleted.status, deleted.text).to.equal(404);
    expect(deleted.body.errors[0].code).to.equal('not_found');

    const reader = (await mintKey(fx.t, fx.owner, ['contacts:read'])).secret;
    const refused = await write(contactId, { body: 'x' }, { key: reader });
    expect(refused.status).to.equal(403);
    const note = await fx.ok(write(contactId, { body: 'mine' }), 201);
    const other = await newWorkspace(fx.t, 'Other workspace');
    const otherKey = (await mintKey(fx.t, other, ['contacts:read', 'contacts:write'])).secret;
    expect((await fx.t.client.get(`/api/contacts/${contactId}/notes`, { key: otherKey })).status).to.equal(404);
    expect((await fx.t.client.delete(`/api/contacts/${contactId}/notes/${note.id}`, { key: otherKey })).status).to.equal(404);
    const notes = await fx.ok(fx.t.client.get(`/api/contacts/${contactId}/notes`, fx.as()));
    expect(notes.data.map((n: { body: string }) => n.body)).to.deep.equal(['mine']);
  });

  it('an idempotent retry gets the same note; the 1,001st note on a contact is 422 limit_reached', async () => {
    const contactId = await newContact();
    const a = await fx.ok(write(contactId, { body: 'once' }, { headers: { 'idempotency-key': `note-${marker('k')}` } }), 201);
    const key = `note-${marker('k')}`;
    const b = await fx.ok(write(contactId, { body: 'twice' }, { headers: { 'idempotency-key': key } }), 201);
    const again = await write(contactId, { body: 'twice' }, { headers: { 'idempotency-key': key } });
    expect(again.status).to.equal(201);
    expect(again.body).to.deep.equal(b);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    const full = await newContact();
    // Filled through the log's own path (one command each would take minutes): 1,000 notes written straight.
    const { t } = fx;
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      tenant_id: fx.owner.workspaceId,
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      contact_id: full,
      body: 'filler',
      author_type: 'member',
      author_id: fx.owner.memberId,
      created_at: new Date(),
    }));
    await t.testDb.db('contact_notes').insert(rows);
    const over = await write(full, { body: 'one too many' });
    expect(over.status, over.text).to.equal(422);
    expect(over.body.errors[0].code).to.equal('limit_reached');
    expect(a.body).to.equal('once');
  });

  it('erasing the contact takes its notes: gone from the list, null in the log, the feed and the stored answer, in no table of the database', async () => {
    const contactId = await newContact();
    const kept = await newContact();
    const secret = marker('note');
    const stays = marker('other');
    await fx.ok(write(contactId, { body: `Call after 6pm ${secret}` }, { headers: { 'idempotency-key': `erase-${marker('k')}` } }), 201);
    await fx.ok(write(kept, { body: `Kept ${stays}` }), 201);
    const before = findMarkers(await dumpDatabase(fx.t.testDb.db), { secret, stays });
    expect(before.map((f) => f.split(' in ')[0])).to.include.members(['secret', 'stays']);

    const erase = await fx.t.client.delete(`/api/contacts/${contactId}`, fx.as());
    expect(erase.status, erase.text).to.equal(200);
    const list = await fx.t.client.get(`/api/contacts/${contactId}/notes`, fx.as());
    expect(list.status).to.equal(410);
    expect(list.body.errors[0].code).to.equal('contact_erased');
    const refused = await write(contactId, { body: 'after' });
    expect(refused.status).to.equal(410);
    expect(refused.body.errors[0].code).to.equal('contact_erased');
    const feed = await fx.ok(fx.t.client.get('/api/events?types=contact_note.created&per_page=100', fx.as()));
    const erased = feed.data.find((e: { aggregate_id: string }) => e.aggregate_id === contactId);
    expect(erased.payload.body).to.equal(null);

    // Every table: the erased note's words are nowhere, the other contact's note still is (the search finds what is there).
    const after = findMarkers(await dumpDatabase(fx.t.testDb.db), { secret, stays });
    expect(after.filter((f) => f.startsWith('secret'))).to.deep.equal([]);
    expect(after.filter((f) => f.startsWith('stays'))).to.not.deep.equal([]);
  });
});
