// The crypto-shredding mechanism on its own, against real Postgres: what is
// sealed opens while the key exists and reads as null (or the declared erased
// value) once it is destroyed; a sealed value does not open for another tenant
// or subject; a key wrapped under another service key is never replaced.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { eventCatalogue, personalObjects } from '../../src/capabilities/index.js';
import type { PendingEvent } from '../../src/eventstore/envelope.js';
import { Forgettable, SEALED, SEALED_VALUE } from '../../src/eventstore/forgettable.js';
import { createSealer } from '../../src/platform/crypto/seal.js';
import { createTestDb, type TestDb } from '../support/db.js';

const KEY = 'forgettable-test-key-0123456789abcdef';

function contactCreated(contactId: string, name: string): PendingEvent {
  return {
    id: randomUUID(),
    type: 'contact.created',
    aggregate_type: 'contact',
    aggregate_id: contactId,
    payload: { contact_id: contactId, external_id: null, email: `${name}@example.com`, name, phone: null, channel_id: null },
    created_at: new Date().toISOString(),
    metadata: {},
  };
}

describe('forgettable personal data (data keys beside the log)', function () {
  let t: TestDb;
  const forgettable = new Forgettable(eventCatalogue(), createSealer({ data_key: KEY }), personalObjects());
  const tenant = randomUUID();
  before(async () => (t = await createTestDb('forgettable')));
  after(async () => t?.drop());

  async function sealAndStore(events: PendingEvent[]) {
    const sealed = await forgettable.seal(t.db, tenant, events);
    for (const w of sealed.keyWrites) await t.db.raw(w.sql, w.bindings as never[]);
    return sealed.events.map((e, i) => ({ ...e, tenant_id: tenant, seq: i + 1 }));
  }

  it('seals declared personal fields only, and opens them while the key exists', async () => {
    const id = randomUUID();
    const [stored] = await sealAndStore([contactCreated(id, 'Ada')]);
    expect(stored!.payload).to.have.keys(['contact_id', 'external_id', 'phone', 'channel_id', SEALED]);
    expect(JSON.stringify(stored!.payload)).not.to.include('Ada');
    const [opened] = await forgettable.open(t.db, [stored!]);
    expect(opened!.payload).to.deep.equal({ contact_id: id, external_id: null, email: 'Ada@example.com', name: 'Ada', phone: null, channel_id: null });
    expect(opened!.sealed_payload).to.deep.equal(stored!.payload);
  });

  it('reads null once the key is destroyed, and a part goes with its conversation', async () => {
    const contact = randomUUID();
    const conversation = randomUUID();
    const part = randomUUID();
    const stored = await sealAndStore([
      contactCreated(contact, 'Grace'),
      {
        ...contactCreated(contact, 'x'),
        type: 'conversation.created',
        aggregate_type: 'conversation',
        payload: {
          conversation_id: conversation,
          channel_id: randomUUID(),
          contact_id: contact,
          external_id: null,
          subject: 'Refund',
          state: 'open',
          assignee_id: null,
          team_id: null,
          source: 'teammate',
        },
      },
      {
        ...contactCreated(contact, 'x'),
        type: 'conversation_part.created',
        aggregate_type: 'conversation',
        payload: {
          conversation_id: conversation,
          part_id: part,
          part_type: 'comment',
          channel_id: randomUUID(),
          author: { type: 'member', id: 'm' },
          body: 'secret words',
          attachments: [{ url: 'https://x/y.png' }],
        },
      },
    ]);
    expect(await forgettable.destroy(t.db, tenant, [`contact:${contact}`, `conversation:${conversation}`])).to.equal(3);
    const opened = await forgettable.open(t.db, stored);
    expect(opened[0]!.payload).to.include({ name: null, email: null });
    expect(opened[1]!.payload).to.include({ subject: null, state: 'open' });
    expect(opened[2]!.payload).to.include({ body: null, attachments: null, part_type: 'comment' });
  });

  it('does not open a sealed payload copied to another tenant or subject', async () => {
    const id = randomUUID();
    const [stored] = await sealAndStore([contactCreated(id, 'Linus')]);
    const elsewhere = { ...stored!, tenant_id: randomUUID() };
    expect((await forgettable.open(t.db, [elsewhere]))[0]!.payload).to.include({ name: null });
    // the same ciphertext claimed for another contact of the same tenant: that contact's key does not open it
    const other = randomUUID();
    await sealAndStore([contactCreated(other, 'Other')]);
    const moved = {
      ...stored!,
      payload: { ...stored!.payload, contact_id: other, [SEALED]: { ...(stored!.payload[SEALED] as object), s: `contact:${other}` } },
    };
    expect((await forgettable.open(t.db, [moved]))[0]!.payload).to.include({ name: null });
  });

  it('shreds answers by object type and reveals them, with the declared erased value once the key is gone', async () => {
    const part = randomUUID();
    const conversation = randomUUID();
    await sealAndStore([
      {
        ...contactCreated(randomUUID(), 'x'),
        type: 'conversation_part.created',
        aggregate_type: 'conversation',
        payload: {
          conversation_id: conversation,
          part_id: part,
          part_type: 'comment',
          channel_id: randomUUID(),
          author: { type: 'member', id: 'm' },
          body: 'hello',
          attachments: [],
        },
      },
    ]);
    const answer = { type: 'conversation_part', id: part, body: 'hello', attachments: [{ url: 'https://a/b' }], author: { type: 'member', id: 'm' } };
    const shredded = (await forgettable.shred(t.db, tenant, answer)) as Record<string, unknown>;
    expect(JSON.stringify(shredded)).not.to.include('hello');
    expect(shredded.body).to.have.key(SEALED_VALUE);
    expect(await forgettable.reveal(t.db, tenant, JSON.parse(JSON.stringify(shredded)))).to.deep.equal(answer);
    await forgettable.destroy(t.db, tenant, [`part:${part}`]);
    expect(await forgettable.reveal(t.db, tenant, shredded)).to.deep.equal({ ...answer, body: null, attachments: [] });
  });

  it('refuses to seal under a subject whose key another service key wrapped, and opens it as null', async () => {
    const id = randomUUID();
    const [stored] = await sealAndStore([contactCreated(id, 'Barbara')]);
    const stranger = new Forgettable(eventCatalogue(), createSealer({ data_key: 'another-service-key-0123456789abcdef' }), personalObjects());
    const update: PendingEvent = { ...contactCreated(id, 'x'), type: 'contact.updated', payload: { contact_id: id, name: 'Barbara L.' } };
    let refused: unknown = null;
    await stranger.seal(t.db, tenant, [update]).catch((e) => (refused = e));
    expect(String(refused)).to.match(/do not open with this process's service key/);
    expect((await stranger.open(t.db, [stored!]))[0]!.payload).to.include({ name: null });
    expect((await forgettable.open(t.db, [stored!]))[0]!.payload).to.include({ name: 'Barbara' });
  });

  it('seals answers with a key it created only once told the key committed (remember), never opens with it', async () => {
    const part = randomUUID();
    const event: PendingEvent = {
      ...contactCreated(randomUUID(), 'x'),
      type: 'conversation_part.created',
      aggregate_type: 'conversation',
      payload: {
        conversation_id: randomUUID(),
        part_id: part,
        part_type: 'comment',
        channel_id: randomUUID(),
        author: { type: 'member', id: 'm' },
        body: 'hi',
        attachments: [],
      },
    };
    const created = new Map<string, Buffer>();
    await forgettable.seal(t.db, tenant, [event], created); // its key writes never run: as if the transaction rolled back
    expect(created.size).to.equal(1);
    const answer = { type: 'conversation_part', id: part, body: 'hi' };
    expect(await forgettable.shred(t.db, tenant, answer)).to.deep.equal({ ...answer, body: null });
    forgettable.remember(created);
    const shredded = (await forgettable.shred(t.db, tenant, answer)) as Record<string, unknown>;
    expect(shredded.body).to.have.key(SEALED_VALUE);
    // opening reads data_keys only: a key the table does not hold opens nothing
    expect(await forgettable.reveal(t.db, tenant, shredded)).to.deep.equal({ ...answer, body: null });
  });

  it('without the append transaction (EventStoreDB), two decisions about one fresh subject seal with the key stored first: both open', async () => {
    // Two processes decide the same new contact (ids derived from one outbound recipient): each draws a fresh key.
    // The first writes its key; the second's insert does nothing. Whichever append wins, its events must open
    // with the key data_keys holds; with `seal` alone the second's would be sealed with a key nobody stored.
    const id = randomUUID();
    const firstKeys = new Map<string, Buffer>();
    const first = await forgettable.sealBeside(t.db, tenant, [contactCreated(id, 'Lin')], firstKeys);
    const secondKeys = new Map<string, Buffer>();
    const second = await forgettable.sealBeside(t.db, tenant, [contactCreated(id, 'Lin')], secondKeys);
    expect(JSON.stringify(second[0]!.payload)).not.to.include('Lin');
    expect([...secondKeys.values()][0]!.equals([...firstKeys.values()][0]!), 'the loser takes the stored key').to.equal(true);
    const opened = await forgettable.open(
      t.db,
      [first[0]!, second[0]!].map((e, i) => ({ ...e, tenant_id: tenant, seq: i + 1 })),
    );
    for (const o of opened) expect(o.payload).to.include({ name: 'Lin', email: 'Lin@example.com' });
    // `seal` alone (the Postgres path, whose key insert runs in the append's transaction under the workspace's lock)
    // does not look: the same race there would seal with an unstored key, which the lock rules out.
    const unguarded = await forgettable.seal(t.db, tenant, [contactCreated(id, 'Lin')]);
    for (const w of unguarded.keyWrites) await t.db.raw(w.sql, w.bindings as never[]);
    const [lost] = await forgettable.open(t.db, [{ ...unguarded.events[0]!, tenant_id: tenant, seq: 3 }]);
    expect(lost!.payload.name).to.not.equal('Lin');
  });
});
