import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';
import { mintKey, newWorkspace, type Member, type TestService } from '../support/service.js';
import type { Receiver } from '../webhooks/receiver.js';

describe('companies', () => {
  const fx = capabilityFixture('companies', {
    scopes: ['contacts:read', 'contacts:write', 'events:read', 'settings:write'],
    webhook: { events: ['company.created', 'company.updated', 'company.deleted'] },
  });
  let t: TestService;
  let owner: Member;
  let key: string;
  let receiver: Receiver;
  before(() => {
    ({ t, owner, key, receiver } = fx);
  });

  const create = (body: Record<string, unknown>, k = key) => t.client.post('/api/companies', body, { key: k });

  it('creates, reads, lists and updates a company; custom attributes merge by key and null removes one', async () => {
    const c = await create({
      company_id: 'acme-1',
      name: 'Acme',
      website: 'https://acme.example',
      plan: 'pro',
      size: 40,
      custom_attributes: { tier: 'gold', seats: 12, beta: true },
    });
    expect(c.status, c.text).to.equal(201);
    expect(c.body).to.include({ type: 'company', company_id: 'acme-1', name: 'Acme', plan: 'pro', size: 40 });
    expect(c.body.custom_attributes).to.deep.equal({ tier: 'gold', seats: 12, beta: true });
    expect((await t.client.get(`/api/companies/${c.body.id}`, { key })).body).to.deep.equal(c.body);

    const u = await t.client.put(
      `/api/companies/${c.body.id}`,
      { name: 'Acme Inc', plan: null, custom_attributes: { seats: 15, beta: null, region: 'eu' } },
      { key },
    );
    expect(u.status, u.text).to.equal(200);
    expect(u.body).to.include({ name: 'Acme Inc', plan: null, size: 40 });
    expect(u.body.custom_attributes).to.deep.equal({ tier: 'gold', seats: 15, region: 'eu' });

    const feed = (await t.client.get('/api/events?types=company.updated', { key })).body.data;
    expect(feed.at(-1).payload).to.deep.equal({ id: c.body.id, name: 'Acme Inc', plan: null, custom_attributes: { tier: 'gold', seats: 15, region: 'eu' } });
    const same = await t.client.put(`/api/companies/${c.body.id}`, { name: 'Acme Inc', custom_attributes: { seats: 15 } }, { key });
    expect(same.status).to.equal(200);
    expect((await t.client.get('/api/events?types=company.updated', { key })).body.data, 'an update that changes nothing appends nothing').to.have.length(
      feed.length,
    );

    const byId = await t.client.get('/api/companies?company_id=acme-1', { key });
    expect(byId.body.data.map((x: { id: string }) => x.id)).to.deep.equal([c.body.id]);
  });

  it('refuses a second company with the same company_id with 409 company_exists naming the existing one', async () => {
    const first = await create({ company_id: 'dup-1', name: 'First' });
    const again = await create({ company_id: 'dup-1', name: 'Second' });
    expect(again.status).to.equal(409);
    expect(again.body.errors[0].code).to.equal('company_exists');
    expect(again.body.errors[0].message).to.include(first.body.id);
  });

  it('pages by name with the list envelope, and deletes (the company_id is free again)', async () => {
    for (const n of ['Zeta', 'Alpha', 'Mid']) expect((await create({ company_id: `page-${n}`, name: n })).status).to.equal(201);
    const names: string[] = [];
    let next: string | null = null;
    do {
      const r = await t.client.get(`/api/companies?sort=name&order=asc&per_page=2${next ? `&starting_after=${next}` : ''}`, { key });
      expect(r.status, r.text).to.equal(200);
      names.push(...r.body.data.map((x: { name: string }) => x.name));
      next = r.body.pages.next?.starting_after ?? null;
    } while (next);
    expect(names).to.deep.equal([...names].sort());
    expect(names).to.include.members(['Alpha', 'Mid', 'Zeta']);

    const z = (await t.client.get('/api/companies?company_id=page-Zeta', { key })).body.data[0];
    const del = await t.client.delete(`/api/companies/${z.id}`, { key });
    expect(del.status).to.equal(200);
    expect(del.body).to.deep.equal({ type: 'company', id: z.id, deleted: true });
    expect((await t.client.get(`/api/companies/${z.id}`, { key })).status).to.equal(404);
    expect((await t.client.delete(`/api/companies/${z.id}`, { key })).status).to.equal(404);
    expect((await create({ company_id: 'page-Zeta', name: 'Zeta again' })).status).to.equal(201);
  });

  it('validates fields with their paths and changes nothing', async () => {
    const before = (await t.client.get('/api/events', { key })).body.data.length;
    const bad = await create({ company_id: 'v-1', name: '', size: -1, website: 'ftp://x', custom_attributes: { ok: 1, nested: { no: 1 } } });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).to.include.members(['name', 'size', 'website', 'custom_attributes.nested']);
    expect((await create({ name: 'No id' })).body.errors[0]).to.include({ code: 'missing_field', field: 'company_id' });
    expect((await t.client.get('/api/events', { key })).body.data.length).to.equal(before);
  });

  it('keeps workspaces apart (404) and needs contacts scopes', async () => {
    const c = await create({ company_id: 'mine', name: 'Mine' });
    const other = await newWorkspace(t, 'Other');
    const otherKey = (await mintKey(t, other, ['contacts:read', 'contacts:write'])).secret;
    expect((await t.client.get(`/api/companies/${c.body.id}`, { key: otherKey })).status).to.equal(404);
    expect((await t.client.put(`/api/companies/${c.body.id}`, { name: 'Taken' }, { key: otherKey })).status).to.equal(404);
    expect((await t.client.delete(`/api/companies/${c.body.id}`, { key: otherKey })).status).to.equal(404);
    expect((await t.client.get('/api/companies', { key: otherKey })).body.data).to.deep.equal([]);
    // Another workspace may use the same company_id.
    expect((await create({ company_id: 'mine', name: 'Theirs' }, otherKey)).status).to.equal(201);

    const reader = (await mintKey(t, owner, ['contacts:read'])).secret;
    expect((await create({ company_id: 'r-1', name: 'R' }, reader)).status).to.equal(403);
    expect((await t.client.get('/api/companies', { key: reader })).status).to.equal(200);
    const none = (await mintKey(t, owner, ['events:read'])).secret;
    expect((await t.client.get('/api/companies', { key: none })).status).to.equal(403);
  });

  it('pushes company events to a webhook endpoint filtered on them', async () => {
    const c = await create({ company_id: 'hooked', name: 'Hooked' });
    await t.client.delete(`/api/companies/${c.body.id}`, { key });
    await receiver.waitFor(1);
    const mine = () => receiver.inSeqOrder((b) => b.aggregate_id === c.body.id);
    const { eventually } = await import('../support/events.js');
    await eventually(
      () => mine().length,
      (n) => n >= 2,
    );
    expect(mine().map((b) => b.type)).to.deep.equal(['company.created', 'company.deleted']);
    expect(mine()[0]).to.include({ aggregate_type: 'company', tenant_id: owner.workspaceId });
  });
});
