// Merging a contact into another, through the API: what goes over (its
// conversations, companies, tags, notes, and what the survivor lacks of its
// identifiers and custom attributes), the merged contact answering 410 with a
// canonical link, a bridge's message for its old identifiers landing on the
// survivor, the refusals, and an erasure of the survivor reaching everything
// merged into it (a database dump holds none of the merged contact's data).
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';
import { inboundBody, postInbound } from '../support/channels.js';
import { dumpDatabase, findMarkers } from '../support/database-dump.js';
import { ADMIN_SCOPES } from '../support/service.js';

const marker = (what: string) => `${what}${randomBytes(5).toString('hex')}`;

describe('merging contacts', function () {
  this.timeout(120_000);
  const fx = capabilityFixture('contact-merge', { scopes: [...ADMIN_SCOPES, 'contacts:delete'] });
  const merge = (id: string, into: string) => fx.t.client.post(`/api/contacts/${id}/merge`, { into }, fx.as());
  /** A contact made by a bridge's first post, with its conversation. */
  const viaBridge = async (contact: Record<string, unknown>, thread: string) => {
    const r = await postInbound(fx.t, fx.channel.id, fx.channel.secret, inboundBody({ external_id: thread, contact, content: `Hello from ${thread}` }));
    expect(r.status, r.text).to.equal(201);
    return { contactId: r.body.contact_id as string, conversationId: r.body.conversation_id as string };
  };

  it("moves the merged contact's conversations, companies, tags and notes to the survivor, and fills what the survivor lacks", async () => {
    const lead = await viaBridge({ external_id: 'wa:+1555001', name: 'Ada L.', phone: '+1555001' }, 'cm-1');
    const user = await fx.ok(
      fx.t.client.post('/api/contacts', { email: 'ada@example.com', name: 'Ada Lovelace', custom_attributes: { plan: 'pro' } }, fx.as()),
      201,
    );
    await fx.ok(fx.t.client.put(`/api/contacts/${lead.contactId}`, { custom_attributes: { plan: 'free', source: 'whatsapp' } }, fx.as()));
    const company = await fx.ok(fx.t.client.post('/api/companies', { company_id: 'acme', name: 'Acme' }, fx.as()), 201);
    await fx.ok(fx.t.client.post(`/api/contacts/${lead.contactId}/companies`, { company_id: company.id }, fx.as()), 200);
    const tag = await fx.ok(fx.t.client.post('/api/tags', { name: marker('vip') }, fx.as()), 201);
    await fx.ok(fx.t.client.post(`/api/contacts/${lead.contactId}/tags`, { tag_id: tag.id }, fx.as()), 200);
    const note = await fx.ok(fx.t.client.post(`/api/contacts/${lead.contactId}/notes`, { body: 'Prefers WhatsApp' }, fx.as()), 201);

    const survivor = await fx.spec({
      when: () => merge(lead.contactId, user.id),
      then: {
        status: 200,
        body: { id: user.id, email: 'ada@example.com', name: 'Ada Lovelace', external_id: 'wa:+1555001', phone: '+1555001' },
        events: ['contact.updated', 'contact.company_attached', 'contact.tagged', 'contact.merged'],
      },
    });
    // Its own values win; what it lacked came over.
    expect(survivor.custom_attributes).to.deep.equal({ plan: 'pro', source: 'whatsapp' });
    expect(survivor.companies.map((c: { id: string }) => c.id)).to.deep.equal([company.id]);
    expect(survivor.tags.map((t: { id: string }) => t.id)).to.deep.equal([tag.id]);
    expect((await fx.ok(fx.t.client.get(`/api/conversations/${lead.conversationId}`, fx.as()))).contact_id).to.equal(user.id);
    const notes = await fx.ok(fx.t.client.get(`/api/contacts/${user.id}/notes`, fx.as()));
    expect(notes.data.map((n: { id: string }) => n.id)).to.deep.equal([note.id]);
    // The merge is in the survivor's history.
    const history = await fx.ok(fx.t.client.get(`/api/contacts/${user.id}/history`, fx.as()));
    expect(history.data.map((e: { type: string }) => e.type)).to.include('contact.merged');

    // The merged contact: 410, naming the survivor as canonical; changes of it too.
    const gone = await fx.t.client.get(`/api/contacts/${lead.contactId}`, fx.as());
    expect([gone.status, gone.body.errors[0].code]).to.deep.equal([410, 'contact_merged']);
    expect(gone.headers.get('link')).to.equal(`</api/contacts/${user.id}>; rel="canonical"`);
    const change = await fx.t.client.put(`/api/contacts/${lead.contactId}`, { name: 'x' }, fx.as());
    expect([change.status, change.body.errors[0].code]).to.deep.equal([410, 'contact_merged']);

    // A bridge's next message from the old identity lands on the survivor, in the moved conversation.
    const again = await postInbound(
      fx.t,
      fx.channel.id,
      fx.channel.secret,
      inboundBody({ external_id: 'cm-2', contact: { external_id: 'wa:+1555001' }, content: 'New thread, same person' }),
    );
    expect(again.status, again.text).to.equal(201);
    expect(again.body.contact_id).to.equal(user.id);

    // A survivor with an external_id of its own: the merged contact keeps its own, and a message by it still lands on the survivor.
    const other = await viaBridge({ external_id: 'wa:+1555009' }, 'cm-3');
    const crm = await fx.ok(fx.t.client.post('/api/contacts', { external_id: 'crm-9', email: 'nine@example.com' }, fx.as()), 201);
    expect((await fx.ok(merge(other.contactId, crm.id))).external_id).to.equal('crm-9');
    // A conversation started for the merged contact's id is the survivor's; the merged id is not erased on its own.
    const started = await fx.ok(fx.t.client.post('/api/conversations', { channel_id: fx.channel.id, body: 'Hi', contact_id: other.contactId }, fx.as()), 201);
    expect(started.contact_id).to.equal(crm.id);
    const eraseMerged = await fx.t.client.delete(`/api/contacts/${other.contactId}`, fx.as());
    expect([eraseMerged.status, eraseMerged.body.errors[0].code]).to.deep.equal([410, 'contact_merged']);
    const byOld = await postInbound(
      fx.t,
      fx.channel.id,
      fx.channel.secret,
      inboundBody({ external_id: 'cm-4', contact: { external_id: 'wa:+1555009' }, content: 'Me again' }),
    );
    expect(byOld.status, byOld.text).to.equal(201);
    expect(byOld.body.contact_id).to.equal(crm.id);
  });

  it('refuses a merge into itself, into an unknown, erased or merged contact, and of a merged one, writing nothing', async () => {
    const a = await fx.ok(fx.t.client.post('/api/contacts', { email: `${marker('a')}@example.com` }, fx.as()), 201);
    const b = await fx.ok(fx.t.client.post('/api/contacts', { email: `${marker('b')}@example.com` }, fx.as()), 201);
    const c = await fx.ok(fx.t.client.post('/api/contacts', { email: `${marker('c')}@example.com` }, fx.as()), 201);
    const erased = await fx.ok(fx.t.client.post('/api/contacts', { email: `${marker('e')}@example.com` }, fx.as()), 201);
    expect((await fx.t.client.delete(`/api/contacts/${erased.id}`, fx.as())).status).to.equal(200);
    await fx.ok(merge(b.id, c.id));
    const before = (await fx.ok(fx.t.client.get('/api/events?types=contact.merged&per_page=100', fx.as()))).data.length;
    for (const [from, into, status, code] of [
      [a.id, a.id, 400, 'invalid_field'],
      [a.id, '00000000-0000-4000-8000-000000000000', 400, 'unknown_contact'],
      [a.id, erased.id, 422, 'merge_target_erased'],
      [a.id, b.id, 422, 'merge_target_merged'],
      [b.id, a.id, 410, 'contact_merged'],
      [erased.id, a.id, 410, 'contact_erased'],
    ] as const) {
      const r = await merge(from, into);
      expect([r.status, r.body.errors[0].code], code).to.deep.equal([status, code]);
    }
    expect((await fx.ok(fx.t.client.get('/api/events?types=contact.merged&per_page=100', fx.as()))).data.length).to.equal(before);
  });

  it("erasing the survivor erases what was merged into it: the merged contact's identifiers, conversations and notes leave no trace", async () => {
    const name = marker('Grace');
    const phone = `+1${randomBytes(4).readUInt32BE(0)}`;
    const lead = await viaBridge({ external_id: marker('wa:'), name, phone }, marker('cm-e'));
    const content = (await fx.ok(fx.t.client.get(`/api/conversations/${lead.conversationId}`, fx.as()))).parts[0].body as string;
    const noteBody = marker('note');
    await fx.ok(fx.t.client.post(`/api/contacts/${lead.contactId}/notes`, { body: noteBody }, fx.as()), 201);
    const user = await fx.ok(fx.t.client.post('/api/contacts', { email: `${marker('g')}@example.com`, name: 'Grace H.' }, fx.as()), 201);
    await fx.ok(merge(lead.contactId, user.id));
    const markers = { name, phone, noteBody, content };
    expect(findMarkers(await dumpDatabase(fx.t.testDb.db), markers).length, 'found before the erasure').to.be.greaterThan(0);

    const erase = await fx.t.client.delete(`/api/contacts/${user.id}`, fx.as());
    expect(erase.status, erase.text).to.equal(200);
    expect(findMarkers(await dumpDatabase(fx.t.testDb.db), markers)).to.deep.equal([]);
    const erasedEvents = await fx.ok(fx.t.client.get('/api/events?types=contact.erased&per_page=100', fx.as()));
    expect(erasedEvents.data.map((e: { payload: { contact_id: string } }) => e.payload.contact_id)).to.include.members([user.id, lead.contactId]);
    const keys = await fx.t.testDb
      .db('data_keys')
      .where({ tenant_id: fx.owner.workspaceId })
      .whereIn('subject', [`contact:${lead.contactId}`, `conversation:${lead.conversationId}`]);
    expect(keys).to.have.length(0);
  });
});
