import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { eventually } from '../support/events.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { eventsAsStored } from '../support/event-store.js';
import { Receiver } from '../webhooks/receiver.js';

const CONTACT_EVENTS = ['contact.created', 'contact.updated', 'contact.archived', 'contact.unarchived', 'contact.company_attached', 'contact.company_detached'];

describe('contacts', () => {
  let t: TestService;
  let owner: Member;
  let key: string;
  let receiver: Receiver;
  // Every write happens a second after the one before, so the order of creation is the order of time.
  const clock = new ManualClock(new Date());

  before(async () => {
    t = await startTestService('contacts', { clock, env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } });
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['contacts:read', 'contacts:write', 'events:read', 'settings:write', 'conversations:read', 'conversations:write'])).secret;
    receiver = await new Receiver().start();
    const ep = await t.client.post('/api/webhooks', { url: receiver.url, event_names: CONTACT_EVENTS }, { key });
    expect(ep.status, ep.text).to.equal(201);
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  const tick = () => clock.advance(1000);
  const create = (body: Record<string, unknown>, k = key) => (tick(), t.client.post('/api/contacts', body, { key: k }));
  const get = (id: string, k = key) => t.client.get(`/api/contacts/${id}`, { key: k });
  const put = (id: string, body: Record<string, unknown>, k = key) => (tick(), t.client.put(`/api/contacts/${id}`, body, { key: k }));
  const attach = (id: string, companyId: string, k = key) => (tick(), t.client.post(`/api/contacts/${id}/companies`, { company_id: companyId }, { key: k }));
  const list = async (qs: string, k = key) => {
    const r = await t.client.get(`/api/contacts${qs}`, { key: k });
    expect(r.status, r.text).to.equal(200);
    return r.body.data as { id: string }[];
  };
  const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
  const feed = async (types: string) =>
    (await t.client.get(`/api/events?types=${types}&per_page=150`, { key })).body.data as {
      type: string;
      aggregate_id: string;
      payload: Record<string, unknown>;
    }[];
  const company = async (companyId: string, name = companyId) => {
    const c = await t.client.post('/api/companies', { company_id: companyId, name }, { key });
    expect(c.status, c.text).to.equal(201);
    return c.body as { id: string; company_id: string; name: string };
  };
  /** Erases a contact (DELETE /api/contacts/{id}, contacts:delete). */
  const erase = async (contactId: string) => {
    const r = await t.client.delete(`/api/contacts/${contactId}`, { key: (await mintKey(t, owner, ['contacts:delete'])).secret });
    expect(r.status, r.text).to.equal(200);
  };

  describe('create, read, update', () => {
    it('creates a contact and reads it back; the event carries the fields', async () => {
      const c = await create({
        external_id: 'crm-1',
        email: 'Ann@Example.com',
        name: 'Ann',
        phone: '+15550100',
        custom_attributes: { plan: 'gold', seats: 3, vip: true },
      });
      expect(c.status, c.text).to.equal(201);
      expect(c.body).to.deep.include({
        type: 'contact',
        external_id: 'crm-1',
        email: 'Ann@Example.com',
        name: 'Ann',
        phone: '+15550100',
        channel_id: null,
        archived: false,
        archived_at: null,
        companies: [],
      });
      expect(c.body.custom_attributes).to.deep.equal({ plan: 'gold', seats: 3, vip: true });
      expect((await get(c.body.id)).body).to.deep.equal(c.body);

      const created = (await feed('contact.created')).filter((e) => e.aggregate_id === c.body.id);
      expect(created).to.have.length(1);
      expect(created[0]!.payload).to.deep.equal({
        contact_id: c.body.id,
        external_id: 'crm-1',
        email: 'Ann@Example.com',
        name: 'Ann',
        phone: '+15550100',
        custom_attributes: { plan: 'gold', seats: 3, vip: true },
        channel_id: null,
      });
    });

    it('needs an email or an external_id (400 identity_required), and either alone is enough', async () => {
      const before = (await feed('contact.created')).length;
      for (const body of [{}, { name: 'Nobody' }, { phone: '+1', custom_attributes: { a: 1 } }]) {
        const r = await create(body);
        expect(r.status, r.text).to.equal(400);
        expect(r.body.errors[0]).to.include({ code: 'identity_required' });
      }
      expect((await feed('contact.created')).length).to.equal(before);
      expect((await create({ email: 'only-email@example.com' })).status).to.equal(201);
      expect((await create({ external_id: 'only-external' })).status).to.equal(201);
    });

    it('refuses a duplicate e-mail (any case) or external_id with 409 contact_exists naming the existing contact', async () => {
      const first = await create({ external_id: 'dup-ext', email: 'dup@example.com' });
      expect(first.status, first.text).to.equal(201);
      const byEmail = await create({ email: 'DUP@example.COM', name: 'Again' });
      expect(byEmail.status).to.equal(409);
      expect(byEmail.body.errors[0]).to.include({ code: 'contact_exists', field: 'email' });
      expect(byEmail.body.errors[0].message).to.include(first.body.id);
      const byExternal = await create({ external_id: 'dup-ext', email: 'other@example.com' });
      expect(byExternal.status).to.equal(409);
      expect(byExternal.body.errors[0]).to.include({ code: 'contact_exists', field: 'external_id' });
      expect(byExternal.body.errors[0].message).to.include(first.body.id);
      // external_ids are exact: another case is another id
      expect((await create({ external_id: 'DUP-EXT' })).status).to.equal(201);
    });

    it('updates partially: custom_attributes merge by key, a null removes a key, null clears a field; no change appends nothing', async () => {
      const c = (await create({ email: 'merge@example.com', name: 'Merge', phone: '+1555', custom_attributes: { tier: 'a', seats: 1, beta: true } })).body;
      const u = await put(c.id, { name: 'Merged', phone: null, custom_attributes: { seats: 2, beta: null, region: 'eu' } });
      expect(u.status, u.text).to.equal(200);
      expect(u.body).to.include({ id: c.id, email: 'merge@example.com', name: 'Merged', phone: null });
      expect(u.body.custom_attributes).to.deep.equal({ tier: 'a', seats: 2, region: 'eu' });
      expect((await get(c.id)).body).to.deep.equal(u.body);

      const updates = (await feed('contact.updated')).filter((e) => e.aggregate_id === c.id);
      expect(updates.map((e) => e.payload)).to.deep.equal([
        { contact_id: c.id, name: 'Merged', phone: null, custom_attributes: { tier: 'a', seats: 2, region: 'eu' } },
      ]);
      const same = await put(c.id, { name: 'Merged', custom_attributes: { seats: 2, gone: null } });
      expect(same.status).to.equal(200);
      expect(
        (await feed('contact.updated')).filter((e) => e.aggregate_id === c.id),
        'nothing changed',
      ).to.have.length(1);
    });

    it("refuses changing an e-mail or external_id to another contact's with 409; its own in another case is fine", async () => {
      const a = (await create({ email: 'a-owner@example.com', external_id: 'a-ext' })).body;
      const b = (await create({ email: 'b-owner@example.com' })).body;
      const e = await put(b.id, { email: 'A-Owner@example.com' });
      expect(e.status).to.equal(409);
      expect(e.body.errors[0]).to.include({ code: 'contact_exists', field: 'email' });
      expect(e.body.errors[0].message).to.include(a.id);
      const x = await put(b.id, { external_id: 'a-ext' });
      expect(x.status).to.equal(409);
      expect(x.body.errors[0]).to.include({ code: 'contact_exists', field: 'external_id' });
      const own = await put(a.id, { email: 'A-OWNER@example.com' });
      expect(own.status, own.text).to.equal(200);
      expect(own.body.email).to.equal('A-OWNER@example.com');
      // and a contact must keep one of the two
      const none = await put(b.id, { email: null });
      expect(none.status).to.equal(400);
      expect(none.body.errors[0].code).to.equal('identity_required');
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        expect((await get(id)).status).to.equal(404);
        expect((await put(id, { name: 'x' })).status).to.equal(404);
        expect((await t.client.post(`/api/contacts/${id}/archive`, undefined, { key })).status).to.equal(404);
      }
    });
  });

  describe('lists', () => {
    it('filters by email (any case), external_id, and leaves archived contacts out unless archived=true', async () => {
      const a = (await create({ email: 'list-a@example.com', external_id: 'list-a' })).body;
      const b = (await create({ email: 'list-b@example.com', external_id: 'list-b' })).body;
      expect(ids(await list('?email=LIST-A@example.com'))).to.deep.equal([a.id]);
      expect(ids(await list('?external_id=list-b'))).to.deep.equal([b.id]);
      expect(ids(await list('?external_id=nobody'))).to.deep.equal([]);

      const arch = await t.client.post(`/api/contacts/${b.id}/archive`, undefined, { key });
      expect(arch.status, arch.text).to.equal(200);
      expect(arch.body).to.include({ archived: true });
      expect(arch.body.archived_at).to.be.a('string');
      expect(ids(await list('?per_page=150')))
        .to.include(a.id)
        .and.not.include(b.id);
      expect(ids(await list('?per_page=150&archived=false')))
        .to.include(a.id)
        .and.not.include(b.id);
      expect(ids(await list('?archived=true'))).to.deep.equal([b.id]);
      expect(ids(await list('?external_id=list-b'))).to.deep.equal([]);
      expect(ids(await list('?external_id=list-b&archived=true'))).to.deep.equal([b.id]);
      expect((await get(b.id)).body).to.include({ archived: true });
    });

    it('pages with the list envelope, by created_at or updated_at, either order', async () => {
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await create({ external_id: `page-${i}` })).body.id);
      for (const sort of ['created_at', 'updated_at']) {
        for (const order of ['asc', 'desc']) {
          const seen: string[] = [];
          let next: string | null = null;
          do {
            const r = await t.client.get(`/api/contacts?sort=${sort}&order=${order}&per_page=3${next ? `&starting_after=${next}` : ''}`, { key });
            expect(r.status, r.text).to.equal(200);
            expect(r.body).to.include({ type: 'list' });
            seen.push(...ids(r.body.data));
            next = r.body.pages.next?.starting_after ?? null;
          } while (next);
          expect(new Set(seen).size, `${sort} ${order}: no repeats`).to.equal(seen.length);
          expect(seen).to.include.members(made);
          const mine = seen.filter((id) => made.includes(id));
          expect(mine, `${sort} ${order}`).to.deep.equal(order === 'asc' ? made : [...made].reverse());
        }
      }
      const bad = await t.client.get('/api/contacts?archived=maybe', { key });
      expect(bad.status).to.equal(400);
      expect((await t.client.get('/api/contacts?company_id=nope', { key })).status).to.equal(400);
      expect((await t.client.get('/api/contacts?sort=name', { key })).status).to.equal(400);
    });
  });

  describe('archive and unarchive', () => {
    it('archives and unarchives once each; repeats answer 200 with the current state and append nothing', async () => {
      const c = (await create({ external_id: 'arch-1', name: 'Arch' })).body;
      const a1 = await t.client.post(`/api/contacts/${c.id}/archive`, undefined, { key });
      const a2 = await t.client.post(`/api/contacts/${c.id}/archive`, undefined, { key });
      expect([a1.status, a2.status]).to.deep.equal([200, 200]);
      expect(a2.body).to.deep.equal(a1.body);
      const u1 = await t.client.post(`/api/contacts/${c.id}/unarchive`, undefined, { key });
      const u2 = await t.client.post(`/api/contacts/${c.id}/unarchive`, undefined, { key });
      expect([u1.status, u2.status]).to.deep.equal([200, 200]);
      expect(u1.body).to.include({ archived: false, archived_at: null });
      expect(u2.body).to.deep.equal(u1.body);
      const mine = (await feed('contact.archived,contact.unarchived')).filter((e) => e.aggregate_id === c.id);
      expect(mine.map((e) => e.type)).to.deep.equal(['contact.archived', 'contact.unarchived']);
      expect(mine[0]!.payload).to.deep.equal({ contact_id: c.id });
      expect(ids(await list('?external_id=arch-1'))).to.deep.equal([c.id]);
    });

    it('an archived contact can still be changed and stays archived', async () => {
      const c = (await create({ external_id: 'arch-2' })).body;
      await t.client.post(`/api/contacts/${c.id}/archive`, undefined, { key });
      const u = await put(c.id, { name: 'Still archived' });
      expect(u.status, u.text).to.equal(200);
      expect(u.body).to.include({ name: 'Still archived', archived: true });
    });
  });

  describe('erased contacts', () => {
    it('answer 410 contact_erased by id, to every change, and are left out of lists', async () => {
      const co = await company('erased-co');
      const c = (await create({ external_id: 'erase-me', email: 'erase-me@example.com', name: 'Gone' })).body;
      expect((await t.client.post(`/api/contacts/${c.id}/companies`, { company_id: co.id }, { key })).status).to.equal(200);
      await erase(c.id);
      const r = await get(c.id);
      expect(r.status).to.equal(410);
      expect(r.body.errors[0].code).to.equal('contact_erased');
      for (const w of [
        () => put(c.id, { name: 'Back' }),
        () => t.client.post(`/api/contacts/${c.id}/archive`, undefined, { key }),
        () => t.client.post(`/api/contacts/${c.id}/unarchive`, undefined, { key }),
        () => t.client.post(`/api/contacts/${c.id}/companies`, { company_id: co.id }, { key }),
        () => t.client.delete(`/api/contacts/${c.id}/companies/${co.id}`, { key }),
      ]) {
        const a = await w();
        expect(a.status, a.text).to.equal(410);
        expect(a.body.errors[0].code).to.equal('contact_erased');
      }
      expect(ids(await list('?per_page=150'))).to.not.include(c.id);
      expect(ids(await list('?per_page=150&archived=true'))).to.not.include(c.id);
      expect(ids(await list(`?company_id=${co.id}`))).to.deep.equal([]);
      expect(ids((await t.client.get(`/api/companies/${co.id}/contacts`, { key })).body.data)).to.deep.equal([]);
      // its e-mail and external_id are free again
      expect((await create({ external_id: 'erase-me', email: 'erase-me@example.com' })).status).to.equal(201);
    });
  });

  describe('contacts and companies', () => {
    it('attaches a contact to several companies, lists them both ways, detaches; repeats append nothing', async () => {
      const acme = await company('acme-c', 'Acme');
      const globex = await company('globex-c', 'Globex');
      const c = (await create({ external_id: 'member-1', name: 'Member' })).body;
      const other = (await create({ external_id: 'member-2' })).body;

      const a1 = await attach(c.id, acme.id);
      expect(a1.status, a1.text).to.equal(200);
      expect(a1.body.companies).to.deep.equal([{ type: 'company', id: acme.id, company_id: 'acme-c', name: 'Acme' }]);
      const again = await attach(c.id, acme.id);
      expect(again.status).to.equal(200);
      expect(again.body.companies).to.have.length(1);
      const a2 = await attach(c.id, globex.id);
      expect(a2.body.companies.map((x: { id: string }) => x.id)).to.deep.equal([acme.id, globex.id]);
      expect((await attach(other.id, acme.id)).status).to.equal(200);

      expect(ids(await list(`?company_id=${acme.id}`)).sort()).to.deep.equal([c.id, other.id].sort());
      expect(ids(await list(`?company_id=${globex.id}`))).to.deep.equal([c.id]);
      const byCompany = await t.client.get(`/api/companies/${acme.id}/contacts?sort=created_at&order=asc`, { key });
      expect(byCompany.status, byCompany.text).to.equal(200);
      expect(byCompany.body).to.include({ type: 'list' });
      expect(ids(byCompany.body.data)).to.deep.equal([c.id, other.id]);
      expect(byCompany.body.data[0].companies).to.have.length(2);
      expect((await get(c.id)).body.companies.map((x: { name: string }) => x.name)).to.deep.equal(['Acme', 'Globex']);

      // archived members of a company are listed with archived=true
      await t.client.post(`/api/contacts/${other.id}/archive`, undefined, { key });
      expect(ids((await t.client.get(`/api/companies/${acme.id}/contacts`, { key })).body.data)).to.deep.equal([c.id]);
      expect(ids((await t.client.get(`/api/companies/${acme.id}/contacts?archived=true`, { key })).body.data)).to.deep.equal([other.id]);

      const d1 = await t.client.delete(`/api/contacts/${c.id}/companies/${acme.id}`, { key });
      expect(d1.status, d1.text).to.equal(200);
      expect(d1.body.companies.map((x: { id: string }) => x.id)).to.deep.equal([globex.id]);
      const d2 = await t.client.delete(`/api/contacts/${c.id}/companies/${acme.id}`, { key });
      expect(d2.status).to.equal(200);
      expect(d2.body).to.deep.equal(d1.body);

      const mine = (await feed('contact.company_attached,contact.company_detached')).filter((e) => e.aggregate_id === c.id);
      expect(mine.map((e) => [e.type, e.payload.company_id])).to.deep.equal([
        ['contact.company_attached', acme.id],
        ['contact.company_attached', globex.id],
        ['contact.company_detached', acme.id],
      ]);
      expect(mine[0]!.payload).to.deep.equal({ contact_id: c.id, company_id: acme.id });
    });

    it("takes the company's id, not the workspace's own company_id; an unknown company is a 404", async () => {
      const co = await company('own-id-1');
      const c = (await create({ external_id: 'own-id-contact' })).body;
      const byOwnId = await t.client.post(`/api/contacts/${c.id}/companies`, { company_id: 'own-id-1' }, { key });
      expect(byOwnId.status).to.equal(400);
      expect(byOwnId.body.errors[0]).to.include({ field: 'company_id' });
      const unknown = await t.client.post(`/api/contacts/${c.id}/companies`, { company_id: '00000000-0000-4000-8000-000000000000' }, { key });
      expect(unknown.status).to.equal(404);
      expect((await t.client.delete(`/api/contacts/${c.id}/companies/00000000-0000-4000-8000-000000000000`, { key })).status).to.equal(404);
      expect((await t.client.delete(`/api/contacts/${c.id}/companies/own-id-1`, { key })).status).to.equal(404);
      expect((await t.client.get('/api/companies/00000000-0000-4000-8000-000000000000/contacts', { key })).status).to.equal(404);
      // not attached yet, but the company exists: nothing to do
      const none = await t.client.delete(`/api/contacts/${c.id}/companies/${co.id}`, { key });
      expect(none.status).to.equal(200);
      expect(none.body.companies).to.deep.equal([]);
    });

    it('deleting a company takes it off its contacts', async () => {
      const co = await company('short-lived');
      const c = (await create({ external_id: 'left-behind' })).body;
      await t.client.post(`/api/contacts/${c.id}/companies`, { company_id: co.id }, { key });
      expect((await t.client.delete(`/api/companies/${co.id}`, { key })).status).to.equal(200);
      expect((await get(c.id)).body.companies).to.deep.equal([]);
      expect(ids(await list(`?company_id=${co.id}`))).to.deep.equal([]);
      const rows = await t.service.deps.db('contact_companies').where({ tenant_id: owner.workspaceId, company_id: co.id });
      expect(rows).to.deep.equal([]);
    });
  });

  describe('contacts from conversations', () => {
    it('inbound posts and teammate-started conversations find API-made contacts, and fill blanks only with what no other contact holds', async () => {
      const ch = await createChannel(t, owner);
      const made = (await create({ external_id: 'wa:+15550199', name: 'Made by API' })).body;
      const holder = (await create({ email: 'holder@example.com' })).body;
      const r = await postInbound(
        t,
        ch.id,
        ch.secret,
        inboundBody({ contact: { external_id: 'wa:+15550199', name: 'Claimed', email: 'holder@example.com', phone: '+15550199' } }),
      );
      expect(r.status, r.text).to.equal(201);
      expect(r.body.contact_id).to.equal(made.id);
      const after = (await get(made.id)).body;
      // the name was known, the phone was blank, the e-mail is another contact's
      expect(after).to.include({ name: 'Made by API', phone: '+15550199', email: null });
      expect(ids(await list('?email=holder@example.com'))).to.deep.equal([holder.id]);

      const started = await t.client.post(
        '/api/conversations',
        { channel_id: ch.id, body: 'Hello', contact: { email: 'HOLDER@example.com', name: 'Holder' } },
        { key },
      );
      expect(started.status, started.text).to.equal(201);
      expect(started.body.contact_id).to.equal(holder.id);
      expect((await get(holder.id)).body).to.include({ name: 'Holder' });
      // an external_id nobody holds with a known e-mail: the e-mail's contact, which takes the external_id (it had none)
      const byMail = await postInbound(
        t,
        ch.id,
        ch.secret,
        inboundBody({ external_id: 'thread-by-mail', contact: { external_id: 'wa:+15550888', email: 'Holder@Example.com' } }),
      );
      expect(byMail.status, byMail.text).to.equal(201);
      expect(byMail.body.contact_id).to.equal(holder.id);
      expect((await get(holder.id)).body).to.include({ external_id: 'wa:+15550888', email: 'holder@example.com' });

      // a contact a conversation made is a contact of the API, with its channel
      const fresh = await postInbound(t, ch.id, ch.secret, inboundBody({ contact: { external_id: 'wa:+15550777', name: 'New' } }));
      const c = (await get(fresh.body.contact_id)).body;
      expect(c).to.include({ external_id: 'wa:+15550777', name: 'New', channel_id: ch.id });
      expect(c.custom_attributes).to.deep.equal({});
      const dup = await create({ external_id: 'wa:+15550777' });
      expect(dup.status).to.equal(409);
      expect(dup.body.errors[0].message).to.include(c.id);
    });
  });

  describe('hostile input', () => {
    it('is a 400 with the error envelope, never a 500, and changes nothing', async () => {
      const c = (await create({ external_id: 'hostile-target' })).body;
      const count = async () => {
        let n = 0;
        let next: string | null = null;
        do {
          const r = await t.client.get(`/api/events?per_page=150${next ? `&starting_after=${next}` : ''}`, { key });
          n += r.body.data.length;
          next = r.body.pages.next?.starting_after ?? null;
        } while (next);
        return n;
      };
      const events = await count();
      const bodies: unknown[] = [
        { external_id: 'nul\u0000id' },
        { email: 'a@example.com', name: 'bad \ud800 surrogate' },
        { email: 'a@example.com', custom_attributes: { 'key\u0000': 1 } },
        { email: 'a@example.com', custom_attributes: { nested: { no: 1 } } },
        { email: 'a@example.com', custom_attributes: { list: [1, 2] } },
        { email: 'a@example.com', custom_attributes: { 'bad key!': 1 } },
        { email: 'a@example.com', custom_attributes: { removed: null } },
        { email: 'not an email' },
        { external_id: '' },
        { external_id: 'x'.repeat(256) },
        { external_id: 12 },
        { email: 'a@example.com', unknown: 1 },
        { email: null },
      ];
      for (const b of bodies) {
        const r = await create(b as Record<string, unknown>);
        expect(r.status, `${JSON.stringify(b)} → ${r.text}`).to.equal(400);
        expect(r.body.type).to.equal('error.list');
      }
      for (const raw of ['[]', '"x"', 'null', '{"email":', '{"email":"a@example.com","name":"\\u0000"}']) {
        const r = await t.client.post('/api/contacts', undefined, { key, raw });
        expect(r.status, `${raw} → ${r.text}`).to.equal(400);
      }
      const p = await put(c.id, { name: 'x\u0000y' });
      expect(p.status).to.equal(400);
      expect(p.body.errors[0]).to.include({ code: 'invalid_text', field: 'name' });
      expect((await put(c.id, {})).status).to.equal(400);
      expect((await t.client.get('/api/contacts?email=a%00b', { key })).status).to.equal(400);
      expect((await t.client.get('/api/contacts/%00', { key })).status).to.equal(400);
      expect((await t.client.post(`/api/contacts/${c.id}/companies`, { company_id: 'x\u0000' }, { key })).status).to.equal(400);
      expect((await t.client.post(`/api/contacts/${c.id}/companies`, {}, { key })).status).to.equal(400);
      expect(await count()).to.equal(events);
    });
  });

  describe('tenancy and scopes', () => {
    it("another workspace's contacts are 404 there, and its lists do not show them", async () => {
      const co = await company('tenancy-co');
      const c = (await create({ external_id: 'tenant-a', email: 'tenant@example.com' })).body;
      await t.client.post(`/api/contacts/${c.id}/companies`, { company_id: co.id }, { key });
      const other = await newWorkspace(t, 'Other');
      const otherKey = (await mintKey(t, other, ['contacts:read', 'contacts:write'])).secret;
      expect((await get(c.id, otherKey)).status).to.equal(404);
      expect((await put(c.id, { name: 'Mine now' }, otherKey)).status).to.equal(404);
      expect((await t.client.post(`/api/contacts/${c.id}/archive`, undefined, { key: otherKey })).status).to.equal(404);
      expect((await t.client.delete(`/api/contacts/${c.id}/companies/${co.id}`, { key: otherKey })).status).to.equal(404);
      expect((await t.client.get(`/api/companies/${co.id}/contacts`, { key: otherKey })).status).to.equal(404);
      expect(ids(await list('', otherKey))).to.deep.equal([]);
      expect(ids(await list(`?company_id=${co.id}`, otherKey))).to.deep.equal([]);
      // the other workspace may hold the same e-mail and external_id, and cannot attach our company
      const theirs = await create({ external_id: 'tenant-a', email: 'tenant@example.com' }, otherKey);
      expect(theirs.status, theirs.text).to.equal(201);
      expect((await t.client.post(`/api/contacts/${theirs.body.id}/companies`, { company_id: co.id }, { key: otherKey })).status).to.equal(404);
      // an erased contact of another workspace is a 404 there, not a 410
      const gone = (await create({ external_id: 'tenant-gone' })).body;
      await erase(gone.id);
      expect((await get(gone.id, otherKey)).status).to.equal(404);
    });

    it('contacts:read reads but cannot write; without it nothing is readable', async () => {
      const c = (await create({ external_id: 'scoped' })).body;
      const co = await company('scoped-co');
      const reader = (await mintKey(t, owner, ['contacts:read'])).secret;
      expect((await get(c.id, reader)).status).to.equal(200);
      expect((await t.client.get('/api/contacts', { key: reader })).status).to.equal(200);
      expect((await t.client.get(`/api/companies/${co.id}/contacts`, { key: reader })).status).to.equal(200);
      for (const w of [
        () => create({ external_id: 'by-reader' }, reader),
        () => put(c.id, { name: 'x' }, reader),
        () => t.client.post(`/api/contacts/${c.id}/archive`, undefined, { key: reader }),
        () => t.client.post(`/api/contacts/${c.id}/unarchive`, undefined, { key: reader }),
        () => t.client.post(`/api/contacts/${c.id}/companies`, { company_id: co.id }, { key: reader }),
        () => t.client.delete(`/api/contacts/${c.id}/companies/${co.id}`, { key: reader }),
      ]) {
        const r = await w();
        expect(r.status).to.equal(403);
        expect(r.body.errors[0]).to.include({ code: 'missing_scope' });
        expect(r.body.errors[0].message).to.include('contacts:write');
      }
      const none = (await mintKey(t, owner, ['events:read'])).secret;
      expect((await get(c.id, none)).status).to.equal(403);
      expect((await t.client.get('/api/contacts', { key: none })).status).to.equal(403);
    });
  });

  describe('events', () => {
    it('every change is in the change feed and reaches a webhook endpoint, personal fields opened', async () => {
      const co = await company('hooked-co');
      const c = (await create({ email: 'hooked@example.com', custom_attributes: { k: 'v' } })).body;
      await put(c.id, { name: 'Hooked' });
      await t.client.post(`/api/contacts/${c.id}/archive`, undefined, { key });
      await t.client.post(`/api/contacts/${c.id}/unarchive`, undefined, { key });
      await t.client.post(`/api/contacts/${c.id}/companies`, { company_id: co.id }, { key });
      await t.client.delete(`/api/contacts/${c.id}/companies/${co.id}`, { key });
      const expected = ['contact.created', 'contact.updated', 'contact.archived', 'contact.unarchived', 'contact.company_attached', 'contact.company_detached'];
      const inFeed = (await feed(expected.join(','))).filter((e) => e.aggregate_id === c.id);
      expect(inFeed.map((e) => e.type)).to.deep.equal(expected);
      // Deliveries may arrive out of order (several are in flight per endpoint: docs/webhooks.md); in seq order they are the log's.
      const mine = () =>
        receiver
          .bodies()
          .filter((b) => b.aggregate_id === c.id)
          .sort((x, y) => x.seq - y.seq);
      await eventually(
        () => mine().length,
        (n) => n >= expected.length,
      );
      expect(mine().map((b) => b.type)).to.deep.equal(expected);
      expect(mine()[0]).to.include({ aggregate_type: 'contact', tenant_id: owner.workspaceId });
      expect(mine()[0]!.payload).to.include({ email: 'hooked@example.com' });
      expect(mine()[0]!.payload.custom_attributes).to.deep.equal({ k: 'v' });
      // the log itself keeps the personal fields sealed
      const log = await eventsAsStored(t.service.deps.db, t.testDb.url, t.service.deps.store.kind, owner.workspaceId);
      const stored = log.find((e) => e.aggregate_id === c.id && e.type === 'contact.created');
      expect(stored, 'contact.created in the log').to.not.equal(undefined);
      expect(JSON.stringify(stored!.payload)).to.not.include('hooked@example.com');
    });

    it('an idempotent create answers the same contact once, and stores the answer sealed', async () => {
      const body = { email: 'idem@example.com', name: 'Idem Potent', custom_attributes: { secret: 'idem-marker' } };
      const headers = { 'Idempotency-Key': 'contact-create-1' };
      const first = await t.client.post('/api/contacts', body, { key, headers });
      const second = await t.client.post('/api/contacts', body, { key, headers });
      expect([first.status, second.status]).to.deep.equal([201, 201]);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(second.body).to.deep.equal(first.body);
      const rows = await t.service.deps.db('idempotency_keys').select('*');
      expect(JSON.stringify(rows)).to.not.include('idem-marker');
    });
  });
});
